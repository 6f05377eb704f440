package dev.petrel.server.tls;

import dev.petrel.server.TlsEngineProvider;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds the {@link TlsEngineProvider} a configuration names: {@value TlsConfig#JSSE} is built in,
 * any other comes from {@link ServiceLoader}. A name nothing answers to is an error with one line
 * naming what is there, never a quiet fall-back to JSSE: an operator who asked for the native
 * engine must not be measuring the JDK's without knowing.
 */
final class TlsEngines {
    private TlsEngines() {}

    static TlsEngineProvider provider(String name) throws TlsConfigException {
        if (name.equals(TlsConfig.JSSE)) return JsseEngines.PROVIDER;
        List<String> found = new ArrayList<>(List.of(TlsConfig.JSSE));
        try {
            for (TlsEngineProvider provider : ServiceLoader.load(TlsEngineProvider.class, TlsEngines.class.getClassLoader())) {
                if (provider.name().equals(name)) return provider;
                found.add(provider.name());
            }
        } catch (ServiceConfigurationError e) {
            throw new TlsConfigException("TLS: the engine providers on the class path cannot be loaded (" + e.getMessage() + ")", e);
        }
        String hint = name.equals(TlsConfig.NATIVE) ? " (add the petrel-tls-native module and its libraries to the class path)" : "";
        throw new TlsConfigException("TLS: no engine named '" + name + "'" + hint + "; engines here: " + String.join(", ", found));
    }
}
