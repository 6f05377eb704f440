package dev.petrel.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrustedProxiesTest {
    private static InetAddress ip(String literal) {
        return InetAddress.ofLiteral(literal);
    }

    @Test
    void blocksAndSingleAddressesOfBothFamilies() {
        TrustedProxies trusted = TrustedProxies.of(List.of("10.0.0.0/8", "192.0.2.7", "2001:db8::/32", "172.16.0.0/12"));
        assertThat(trusted.trusts(ip("10.1.2.3"))).isTrue();
        assertThat(trusted.trusts(ip("11.0.0.1"))).isFalse();
        assertThat(trusted.trusts(ip("192.0.2.7"))).isTrue();
        assertThat(trusted.trusts(ip("192.0.2.8"))).isFalse();
        assertThat(trusted.trusts(ip("172.31.255.255"))).isTrue();
        assertThat(trusted.trusts(ip("172.32.0.0"))).isFalse();
        assertThat(trusted.trusts(ip("2001:db8:1::9"))).isTrue();
        assertThat(trusted.trusts(ip("2001:db9::9"))).isFalse();
        assertThat(trusted.trusts(ip("::ffff:10.9.9.9"))).as("an IPv4-mapped address counts as its IPv4 one").isTrue();
        assertThat(trusted.trusts(null)).isFalse();
    }

    @Test
    void noneTrustsNoOne() {
        assertThat(TrustedProxies.NONE.isEmpty()).isTrue();
        assertThat(TrustedProxies.NONE.trusts(ip("127.0.0.1"))).isFalse();
        assertThat(TrustedProxies.of(List.of("0.0.0.0/0")).trusts(ip("203.0.113.9"))).isTrue();
    }

    @Test
    void refusesWhatIsNotABlock() {
        assertThatThrownBy(() -> TrustedProxies.of(List.of("proxy.example.com"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not an IP address or CIDR block: 'proxy.example.com'");
        assertThatThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/33"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a prefix length from 0 to 32: '10.0.0.0/33'");
        assertThatThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/x"))).isInstanceOf(IllegalArgumentException.class);
    }
}
