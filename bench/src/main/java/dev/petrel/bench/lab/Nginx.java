package dev.petrel.bench.lab;

import dev.petrel.bench.model.ServerInfo.Group;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * nginx, the non-Java reference: a C server whose TLS is the system's OpenSSL, answering the lab's
 * HelloWorld contract from a private configuration the lab writes into the server's folder of the
 * run ({@link ServerSpec.Command#line}): its own PID file, error log and temporary folders, so that
 * it never touches the system's nginx or its files.
 *
 * <p>One worker process, so that it uses the one CPU the lab pins it to as the JVM servers do; the
 * master process stays (nginx's normal way to run, and what {@code nginx -s} and a worker's crash
 * need), in the foreground ({@code daemon off}) so that the PID the lab starts, pins and stops is
 * the master's. The worker inherits the pinning, the master stops it on SIGTERM, and the lab counts
 * the CPU of both ({@link RunningServer#cpuSample()}).
 *
 * <p>Otherwise nginx's compiled-in defaults, as every server here keeps its own, with two
 * exceptions the lab needs: no access log (no other server writes one), and
 * {@value #WORKER_CONNECTIONS} connections per worker instead of 512, since the ramp and idle
 * scenarios hold thousands of connections and no JVM server here has such a cap.
 */
final class Nginx {
    /** The server's name in the lab. */
    static final String NAME = "nginx";
    static final int WORKER_CONNECTIONS = 16_384;
    static final String CONFIG = "nginx.conf";
    static final String PID_FILE = "nginx.pid";
    static final String ERROR_LOG = "error.log";
    /** Where Debian installs it, for a {@code PATH} without {@code /usr/sbin}. */
    private static final Path DEBIAN_BINARY = Path.of("/usr/sbin/nginx");

    private Nginx() {}

    /**
     * nginx as a server of the lab: a baseline rather than a peer, since the headline compares
     * Petrel with the Java servers it could replace; in a scenario where the do-nothing C server has
     * no figure (over HTTPS), nginx is the reference of the "× baseline" column.
     */
    static ServerSpec spec(LabPaths paths) {
        String description = version() + " (the system's, TLS by " + openSsl() + "), one worker process: the non-Java "
                + "reference, a baseline rather than a peer";
        return new ServerSpec(NAME, Group.BASELINE, description, (port, tls, ajp, h2, webSocket, folder) -> {
            try {
                Files.createDirectories(folder.resolve("temp"));
                Files.writeString(folder.resolve(CONFIG), config(port, tls, folder, paths.page(), isRoot()),
                        StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("could not write nginx's configuration in " + folder, e);
            }
            return command(binary(), folder);
        }, false, true);
    }

    /**
     * {@code nginx -e ERROR_LOG -p FOLDER -c FOLDER/nginx.conf}: {@code -e} so that even the errors
     * of its start, before it has read the configuration, go to its own log, not the system's.
     */
    static List<String> command(Path binary, Path folder) {
        return List.of(binary.toString(), "-e", folder.resolve(ERROR_LOG).toString(), "-p", folder.toString(),
                "-c", folder.resolve(CONFIG).toString());
    }

    /**
     * The configuration: HTTP on 127.0.0.1:{@code port}, and with {@code tls} HTTPS on the next port
     * with the lab certificate (TLS 1.3 and 1.2, session tickets on); {@code GET /page} answers
     * {@code page}, every other path the 10 bytes {@code HelloWorld}, with the content types of the
     * lab's contract. {@code root}: whether the lab runs as root, when nginx would run its worker as
     * {@code nobody}; the worker then stays root, as every other server of the lab runs as the lab's user.
     */
    static String config(int port, LabCertificate tls, Path folder, Path page, boolean root) {
        StringBuilder conf = new StringBuilder(1024);
        conf.append("# Written by the Petrel lab for one run (bench: Nginx.java): HelloWorld on 127.0.0.1 only.\n")
                .append("worker_processes 1;\n")
                .append("daemon off;\n")
                .append("master_process on;\n")
                .append("pid ").append(quoted(folder.resolve(PID_FILE))).append(";\n")
                .append("error_log ").append(quoted(folder.resolve(ERROR_LOG))).append(" warn;\n");
        if (root) conf.append("user root;\n");
        conf.append("events {\n    worker_connections ").append(WORKER_CONNECTIONS).append(";\n}\n")
                .append("http {\n")
                .append("    access_log off;\n");
        // the compiled-in temporary folders are the system's (/var/lib/nginx): nginx makes these at start
        for (String temp : List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) {
            conf.append("    ").append(temp).append("_temp_path ").append(quoted(folder.resolve("temp").resolve(temp)))
                    .append(";\n");
        }
        conf.append("    server {\n")
                .append("        listen 127.0.0.1:").append(port).append(";\n");
        if (tls != null) {
            conf.append("        listen 127.0.0.1:").append(port + 1).append(" ssl;\n")
                    .append("        ssl_certificate ").append(quoted(tls.certificatePem())).append(";\n")
                    .append("        ssl_certificate_key ").append(quoted(tls.privateKeyPem())).append(";\n")
                    .append("        ssl_protocols TLSv1.3 TLSv1.2;\n")
                    .append("        ssl_session_tickets on;\n");
        }
        conf.append("        location = /page {\n")
                // no MIME map: the contract's type, not the one nginx would take from the file's name
                .append("            types { }\n")
                .append("            default_type \"text/html;charset=UTF-8\";\n")
                .append("            alias ").append(quoted(page)).append(";\n")
                .append("        }\n")
                .append("        location / {\n")
                .append("            default_type \"text/plain;charset=UTF-8\";\n")
                .append("            return 200 \"HelloWorld\";\n")
                .append("        }\n")
                .append("    }\n")
                .append("}\n");
        return conf.toString();
    }

    /**
     * A path as an nginx string. Quotes, backslashes and {@code $} (a variable in {@code alias}) would
     * change its meaning, and no folder of the lab has them, so they are refused rather than escaped.
     */
    static String quoted(Path path) {
        String text = path.toAbsolutePath().toString();
        if (text.contains("\"") || text.contains("\\") || text.contains("$")) {
            throw new IllegalArgumentException("a path nginx's configuration cannot hold as it is: " + text);
        }
        return "\"" + text + "\"";
    }

    /** nginx on {@code PATH}, else where Debian puts it; the name alone when neither is there (the start then fails). */
    static Path binary() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, NAME))) return Path.of(dir, NAME);
        }
        return Files.isExecutable(DEBIAN_BINARY) ? DEBIAN_BINARY : Path.of(NAME);
    }

    /** E.g. {@code nginx 1.22.1}, from {@code nginx -v}; "nginx (not installed)" without it. */
    static String version() {
        String line = Commands.firstLine(List.of(binary().toString(), "-v"));
        String prefix = "nginx version: nginx/";
        return line.startsWith(prefix) ? "nginx " + line.substring(prefix.length()) : "nginx (not installed: apt-get install nginx)";
    }

    /** E.g. {@code OpenSSL 3.0.22}, the library nginx was built with, from {@code nginx -V}. */
    private static String openSsl() {
        try {
            Process process = new ProcessBuilder(binary().toString(), "-V").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
            return builtWith(output);
        } catch (IOException e) {
            return "OpenSSL";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "OpenSSL";
        }
    }

    /** The TLS library in {@code nginx -V}'s "built with OpenSSL 3.0.22 25 Aug 2026" line, name and version. */
    static String builtWith(String versionOutput) {
        for (String line : versionOutput.split("\n")) {
            if (line.startsWith("built with ")) {
                String[] words = line.substring("built with ".length()).strip().split(" ");
                return words.length >= 2 ? words[0] + " " + words[1] : words[0];
            }
        }
        return "OpenSSL";
    }

    /** Whether the lab runs as root (and so nginx's master, which would switch its worker to nobody). */
    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }
}
