package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Decimal}: the one {@code 1*DIGIT} every protocol's lengths and ranges are read with. */
class DecimalTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0|0",
        "007|7",
        "1024|1024",
        "999999999999999999|999999999999999999",
        "1000000000000000000|-1", // 19 digits: refused before it could overflow
        "''|-1",
        "-1|-1",
        "+1|-1",
        "' 1'|-1",
        "'1 '|-1",
        "1e3|-1",
        "0x10|-1",
        "\u0661|-1"}) // an Arabic-Indic digit one: Character.isDigit says yes, HTTP says no
    void textAndBytesAgree(String text, long expected) {
        assertThat(Decimal.parse(text)).isEqualTo(expected);
        byte[] bytes = ("<" + text + ">").getBytes(StandardCharsets.UTF_8);
        assertThat(Decimal.parse(bytes, 1, bytes.length - 1)).isEqualTo(expected);
    }
}
