package dev.petrel.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Host names as configured and matched, and what a host's own configuration keeps of the listener's. */
class SniHostTest {
    private static final CertificateSource A = new CertificateSource.Pem(Path.of("a.crt"), Path.of("a.key"));
    private static final CertificateSource DEFAULT = new CertificateSource.Pem(Path.of("d.crt"), Path.of("d.key"));

    @Test
    void namesAreLowerCaseWithoutTheTrailingDotAndWildcardsCoverOneLabel() {
        SniHost exact = SniHost.of("API.Example.com.", A);
        SniHost wildcard = SniHost.of("*.example.com", A);

        assertThat(exact.hostName()).isEqualTo("api.example.com");
        assertThat(exact.covers("api.example.com", true)).isTrue();
        assertThat(wildcard.covers("api.example.com", true)).isFalse();
        assertThat(wildcard.covers("api.example.com", false)).isTrue();
        assertThat(wildcard.covers("example.com", false)).isFalse();
        assertThat(wildcard.covers("a.b.example.com", false)).isFalse();
    }

    @Test
    void badNamesAndNoCertificateAreRefused() {
        assertThatThrownBy(() -> SniHost.of("a.*.com", A)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SniHost.of("*example.com", A)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SniHost.of(" ", A)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SniHost.of("a.test")).hasMessageContaining("at least one certificate");
    }

    @Test
    void aHostIsConfiguredOnce() {
        TlsConfig.Builder builder = TlsConfig.builder().certificate(DEFAULT).host(SniHost.of("a.test", A));

        assertThatThrownBy(() -> builder.host(SniHost.of("A.test", A))).hasMessage("host a.test is configured twice");
    }

    @Test
    void aHostsConfigurationIsTheListenersWithItsCertificatesAndClientAuthentication() {
        TlsConfig.TrustedCertificates ca = new TlsConfig.TrustedCertificates(Path.of("ca.pem"), null);
        SniHost host = SniHost.of("a.test", A).withClientAuth(TlsConfig.ClientAuth.REQUIRED, ca);
        TlsConfig listener = TlsConfig.builder().certificate(DEFAULT).protocols("TLSv1.3").engine("jsse")
                .ocspResponse(Path.of("ocsp.der")).host(host).build();

        TlsConfig forHost = listener.forHost(host);

        assertThat(forHost.certificates()).containsExactly(A);
        assertThat(forHost.clientAuth()).isEqualTo(TlsConfig.ClientAuth.REQUIRED);
        assertThat(forHost.trustedCertificates()).isEqualTo(ca);
        assertThat(forHost.protocols()).containsExactly("TLSv1.3");
        assertThat(forHost.ocspResponse()).isNull();
        assertThat(forHost.hosts()).isEmpty();
        assertThat(listener.clientAuth()).isEqualTo(TlsConfig.ClientAuth.NONE);
        assertThat(listener.files()).containsExactly(Path.of("d.crt"), Path.of("d.key"), Path.of("ocsp.der"),
                Path.of("a.crt"), Path.of("a.key"), Path.of("ca.pem"));
    }
}
