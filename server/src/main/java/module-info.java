/**
 * The Petrel server. Its API is {@code dev.petrel.server} (the handler API and the server),
 * {@code dev.petrel.server.config} (the server's settings: limits, TLS, AJP, HTTP/2, connectors,
 * trusted proxies, the access log), {@code dev.petrel.server.files} (static files) and
 * {@code dev.petrel.server.admin} (a server's health check and metrics exporters); every other
 * package is the implementation (the exchange and the transport seam, the HTTP/1.1 and AJP
 * protocols, TLS, the transports, the command line) and may change without notice.
 */
module dev.petrel.server {
    requires transitive dev.petrel.http;
    requires dev.petrel.ajp;
    requires dev.petrel.http2;
    requires dev.petrel.websocket;
    requires java.logging;     // ./petrel serve --log-level, on System.Logger's default backend
    requires java.management;  // FileLimit: the process's open-file limit
    requires jdk.management;   // the same, through com.sun.management
    requires java.naming;      // a certificate's common name, parsed as an LDAP name
    requires jdk.unsupported;  // sun.misc.Signal: SIGTERM and SIGHUP for ./petrel serve

    exports dev.petrel.server;
    uses dev.petrel.server.TlsEngineProvider; // TLS engines besides the JDK's (petrel-tls-native provides one)
    uses dev.petrel.server.admin.MetricsExporter; // the admin listener's /metrics (petrel-metrics provides one)
    exports dev.petrel.server.config;
    exports dev.petrel.server.files;
    exports dev.petrel.server.admin;
}
