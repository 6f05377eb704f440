package dev.petrel.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Petrel's version, from the build. */
public final class Version {
    private static final String VERSION = load();

    private Version() {}

    /** The version, e.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} outside a Maven build. */
    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) return "unknown";
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
