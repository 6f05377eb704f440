package dev.petrel.nativetls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.tls.CountedEngines;
import dev.petrel.server.tls.SelfSignedCertificate;
import dev.petrel.server.tls.TlsContext;
import dev.petrel.server.tls.TlsContextFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The native engine as the server finds and sets it up: by name, with the JSSE engine's defaults, refusing what BoringSSL lacks. */
class NativeTlsProviderTest {
    @TempDir
    static Path dir;
    static TlsConfig config;

    @BeforeAll
    static void certificate() throws Exception {
        config = TlsConfig.builder().certificate(SelfSignedCertificate.obtain(dir).source()).engine(TlsConfig.NATIVE).build();
    }

    @Test
    void theServerFindsItByNameAndItIsBoringSsl() throws Exception {
        TlsContext context = TlsContextFactory.create(config);
        try {
            assertThat(CountedEngines.unwrap(context.engines())).isInstanceOf(NativeEngines.class);
            assertThat(context.engines().description()).startsWith("BoringSSL (netty-tcnative 2.0.");
        } finally {
            context.engines().close();
        }
    }

    @Test
    void enginesHaveTheDefaultsOfTheJsseEngine() throws Exception {
        TlsContext context = TlsContextFactory.create(config);
        SSLEngine engine = context.newEngine();
        try {
            assertThat(engine.getUseClientMode()).isFalse();
            // Netty lists the SSLv2Hello pseudo-protocol always; BoringSSL accepts no SSLv2-format hello at all
            assertThat(engine.getEnabledProtocols()).containsExactlyInAnyOrder("SSLv2Hello", "TLSv1.3", "TLSv1.2");
            // BoringSSL's TLS 1.3 suites are fixed (all three AEAD); TLS 1.2 gets exactly the configured ones
            assertThat(engine.getEnabledCipherSuites()).containsExactlyInAnyOrderElementsOf(TlsConfig.DEFAULT_CIPHER_SUITES);
            assertThat(engine.getNeedClientAuth()).isFalse();
            assertThat(engine.getWantClientAuth()).isFalse();
        } finally {
            context.release(engine);
            context.engines().close();
        }
    }

    @Test
    void aProtocolOtherThanTls13And12IsRefusedInOneLine() {
        // BoringSSL would speak TLS 1.1 and 1.0: refused all the same, as with the JDK's engine
        for (String protocol : List.of("TLSv1.1", "TLSv1", "TLSv9")) {
            TlsConfig old = config.toBuilder().protocols("TLSv1.3", protocol).build();

            assertThatThrownBy(() -> TlsContextFactory.create(old)).isInstanceOf(TlsConfigException.class)
                    .hasMessage("TLS: protocol " + protocol + " is not one Petrel serves: choose from TLSv1.3, TLSv1.2"
                            + " (TLS 1.1 and older are deprecated, RFC 8996)");
        }
    }

    @Test
    void cipherSuitesBoringSslLacksAreLeftOutAndNoneLeftIsRefused() throws Exception {
        TlsContext some = TlsContextFactory.create(config.toBuilder()
                .cipherSuites("TLS_MADE_UP", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384").build());
        SSLEngine engine = some.newEngine();
        try {
            assertThat(engine.getEnabledCipherSuites()).contains("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384")
                    .doesNotContain("TLS_MADE_UP", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
        } finally {
            some.release(engine);
            some.engines().close();
        }
        assertThatThrownBy(() -> TlsContextFactory.create(config.toBuilder().cipherSuites("TLS_MADE_UP").build()))
                .isInstanceOf(TlsConfigException.class)
                .hasMessage("TLS: none of the cipher suites [TLS_MADE_UP] is supported by BoringSSL");
    }

    @Test
    void anEngineNobodyProvidesIsAnErrorNamingThoseThatAre() {
        assertThatThrownBy(() -> TlsContextFactory.create(config.toBuilder().engine("openssl").build()))
                .isInstanceOf(TlsConfigException.class)
                .hasMessage("TLS: no engine named 'openssl'; engines here: jsse, native");
    }

    @Test
    void everyEngineIsFreedOnceWhenReleased() throws Exception {
        long before = NativeEngines.liveEngines();
        TlsContext context = TlsContextFactory.create(config);
        List<SSLEngine> engines = new ArrayList<>();
        for (int i = 0; i < 10; i++) engines.add(context.newEngine());
        assertThat(NativeEngines.liveEngines()).isEqualTo(before + 10);
        context.engines().close(); // retired: the engines it made keep working until released

        for (SSLEngine engine : engines) context.release(engine);
        context.release(engines.getFirst()); // a second release is ignored

        assertThat(NativeEngines.liveEngines()).isEqualTo(before);
    }
}
