package dev.petrel.bench.soak;

import java.util.ArrayList;
import java.util.List;

/**
 * The ports a soak server listens on, all on 127.0.0.1; -1 for one it does not serve (Tomcat has
 * no PROXY protocol and no second TLS engine here).
 *
 * @param plain     HTTP/1.1 and h2c (prior knowledge)
 * @param tlsJsse   HTTPS on the JDK's TLS: HTTP/1.1 and h2 by ALPN
 * @param tlsNative HTTPS on BoringSSL: HTTP/1.1 and h2 by ALPN
 * @param proxy     HTTP/1.1 behind HAProxy, which sends a PROXY protocol v2 header first
 * @param ajp       AJP/1.3 behind httpd's mod_jk, no secret
 * @param admin     the admin listener: {@code /health}, {@code /resources}, {@code /stats}
 */
public record SoakPorts(int plain, int tlsJsse, int tlsNative, int proxy, int ajp, int admin) {
    /** As command-line arguments of the soak servers' mains. */
    public List<String> arguments() {
        List<String> args = new ArrayList<>();
        add(args, "--plain", plain);
        add(args, "--tls-jsse", tlsJsse);
        add(args, "--tls-native", tlsNative);
        add(args, "--proxy", proxy);
        add(args, "--ajp", ajp);
        add(args, "--admin", admin);
        return args;
    }

    private static void add(List<String> args, String name, int port) {
        if (port > 0) {
            args.add(name);
            args.add(Integer.toString(port));
        }
    }

    /** Reads {@link #arguments()} back; unknown arguments are left to the caller. */
    public static SoakPorts parse(List<String> args) {
        return new SoakPorts(find(args, "--plain"), find(args, "--tls-jsse"), find(args, "--tls-native"), find(args, "--proxy"),
                find(args, "--ajp"), find(args, "--admin"));
    }

    /** The value after {@code name} in {@code args}, or -1. */
    static int find(List<String> args, String name) {
        int i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? Integer.parseInt(args.get(i + 1)) : -1;
    }
}
