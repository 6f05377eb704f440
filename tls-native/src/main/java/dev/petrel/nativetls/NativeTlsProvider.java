package dev.petrel.nativetls;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.TlsEngineProvider;
import io.netty.handler.ssl.OpenSsl;

/**
 * The {@value TlsConfig#NATIVE} TLS engine: BoringSSL through netty-tcnative, found by
 * {@link java.util.ServiceLoader} when this module is on the class path. Chosen with
 * {@code --tls-engine native}, {@code TlsConfig.builder().engine("native")}, or the
 * {@value TlsConfig#ENGINE_PROPERTY} system property.
 *
 * <p>When BoringSSL cannot load (a platform tcnative has no library for, a {@code /tmp} mounted
 * {@code noexec}), the server does not start, and says why in one line: it never falls back to
 * the JDK's engine by itself.
 */
public final class NativeTlsProvider implements TlsEngineProvider {
    /** For {@link java.util.ServiceLoader}. */
    public NativeTlsProvider() {}

    @Override
    public String name() {
        return TlsConfig.NATIVE;
    }

    @Override
    public Engines engines(Setup setup) throws TlsConfigException {
        if (!OpenSsl.isAvailable()) {
            Throwable cause = OpenSsl.unavailabilityCause();
            throw new TlsConfigException("TLS: the native engine cannot load BoringSSL (netty-tcnative) on this machine ("
                    + rootMessage(cause) + "); use --tls-engine jsse", cause);
        }
        return NativeEngines.create(setup);
    }

    private static String rootMessage(Throwable cause) {
        if (cause == null) return "no reason given";
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message.lines().findFirst().orElse(""));
    }
}
