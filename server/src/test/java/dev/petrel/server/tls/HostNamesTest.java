package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostNamesTest {

    @ParameterizedTest(name = "{0} covers {1}: {2}")
    @CsvSource({
        "a.test,          a.test,         true",
        "a.test,          b.test,         false",
        "*.example.com,   www.example.com, true",
        "*.example.com,   example.com,     false",
        "*.example.com,   a.b.example.com, false",
        "*.example.com,   .example.com,    false",
        "*.example.com,   wwwexample.com,  false",
    })
    void wildcardCoversOneLabel(String pattern, String host, boolean covered) {
        assertThat(HostNames.matches(pattern, host)).isEqualTo(covered);
    }

    @ParameterizedTest
    @CsvSource({"WWW.Example.COM, www.example.com", "example.com., example.com", "a.test, a.test"})
    void normalizedToLowerCaseWithoutTrailingDot(String name, String normalized) {
        assertThat(HostNames.normalize(name)).isEqualTo(normalized);
    }
}
