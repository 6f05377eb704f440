package dev.petrel.springboot;

import dev.petrel.tomcat.PetrelHttp11Protocol;
import dev.petrel.tomcat.PetrelProtocol;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import org.apache.catalina.connector.Connector;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.WebServerSslBundle;
import org.springframework.core.Ordered;

/**
 * Names {@link PetrelHttp11Protocol} as the factory's protocol and carries over what Boot would
 * otherwise give only to Tomcat's own protocol classes: the bind address, and SSL (taken out of
 * Boot's hands, which would insist on an {@code AbstractHttp11Protocol}, and given to Petrel as an
 * {@code <SSLHostConfig>} whose key store is the SSL bundle's, written to a private file), and the
 * {@code server.tomcat.*} connector settings ({@link BootConnectorSettings}).
 */
final class PetrelTomcatCustomizer implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {
    private final String transport;
    private final String tlsEngine; // null: the default
    private final BootConnectorSettings settings; // null: Boot bound no server properties

    PetrelTomcatCustomizer(String transport, String tlsEngine, BootConnectorSettings settings) {
        this.transport = transport;
        this.tlsEngine = tlsEngine;
        this.settings = settings;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE; // after ServletWebServerFactoryCustomizer set port, address and SSL
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.setProtocol(PetrelHttp11Protocol.class.getName());
        InetAddress address = factory.getAddress();
        Ssl ssl = factory.getSsl();
        SslBundle bundle = Ssl.isEnabled(ssl) ? WebServerSslBundle.get(ssl, factory.getSslBundles()) : null;
        Ssl.ClientAuth clientAuth = bundle == null || ssl.getClientAuth() == null ? Ssl.ClientAuth.NONE : ssl.getClientAuth();
        if (bundle != null) {
            factory.setSsl(null); // Boot's own SSL set-up would refuse a protocol that is not an AbstractHttp11Protocol
        }
        if (settings != null) settings.warnUnsupported();
        // added after Boot's own connector customizers, which leave a protocol not of Tomcat's untouched
        factory.addConnectorCustomizers(connector -> configure(connector, address, bundle, clientAuth));
    }

    private void configure(Connector connector, InetAddress address, SslBundle bundle, Ssl.ClientAuth clientAuth) {
        connector.setProperty("transport", transport);
        if (settings != null && connector.getProtocolHandler() instanceof PetrelProtocol petrel) settings.applyTo(petrel);
        if (address != null) connector.setProperty("address", address.getHostAddress());
        if (bundle == null) return;
        connector.setProperty("SSLEnabled", "true");
        if (tlsEngine != null) connector.setProperty("tlsEngine", tlsEngine);
        connector.setScheme("https");
        connector.setSecure(true);
        SSLHostConfig host = new SSLHostConfig();
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.UNDEFINED);
        try {
            BundleKeyStoreFile file = BundleKeyStoreFile.write(bundle);
            certificate.setCertificateKeystoreFile(file.path().toString());
            certificate.setCertificateKeystorePassword(new String(file.password()));
        } catch (IOException e) {
            throw new UncheckedIOException("could not hand the SSL bundle's key store to Petrel", e);
        }
        host.addCertificate(certificate);
        if (bundle.getOptions().getEnabledProtocols() != null) {
            host.setProtocols(String.join("+", bundle.getOptions().getEnabledProtocols()));
        }
        if (clientAuth != Ssl.ClientAuth.NONE) {
            // server.ssl.client-auth: need or want, trusting the bundle's trust store (else the JDK's)
            host.setCertificateVerification(clientAuth == Ssl.ClientAuth.NEED ? "required" : "optional");
            try {
                BundleKeyStoreFile trust = BundleKeyStoreFile.writeTrust(bundle);
                if (trust != null) {
                    host.setTruststoreFile(trust.path().toString());
                    host.setTruststorePassword(new String(trust.password()));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not hand the SSL bundle's trust store to Petrel", e);
            }
        }
        connector.addSslHostConfig(host);
    }
}
