package dev.petrel.tomcat;

import dev.petrel.server.Connector;
import dev.petrel.server.TlsConfig;

/**
 * Petrel's HTTP/1.1 connector for Tomcat:
 * {@code <Connector port="8080" protocol="dev.petrel.tomcat.PetrelHttp11Protocol" transport="nio"/>}
 * in {@code server.xml}, or {@code new Connector(new PetrelHttp11Protocol())} embedded. Catalina,
 * Jasper and the applications above it run unchanged; Petrel parses, limits, frames and paces
 * the exchanges.
 */
public class PetrelHttp11Protocol extends PetrelProtocol {
    /** A connector on port 8080, {@code nio} transport, until its attributes say otherwise. */
    public PetrelHttp11Protocol() {}

    @Override
    Connector connector(String host, int port, TlsConfig tls) {
        return (tls == null ? Connector.http(port) : Connector.https(port, tls)).host(host);
    }

    @Override
    boolean carriesTrailers() {
        return true;
    }

    @Override
    String namePrefix() {
        return getSSLEnabled() ? "petrel-https" : "petrel-http";
    }
}
