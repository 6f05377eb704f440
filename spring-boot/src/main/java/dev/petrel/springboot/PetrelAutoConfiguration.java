package dev.petrel.springboot;

import dev.petrel.tomcat.PetrelHttp11Protocol;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.tomcat.autoconfigure.TomcatServerProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Puts Spring Boot's embedded Tomcat on Petrel's connector: with {@code petrel-spring-boot} on the
 * class path beside {@code spring-boot-starter-webmvc}, Tomcat's connector is
 * {@link PetrelHttp11Protocol}, and {@code server.port}, {@code server.address},
 * {@code server.ssl.*}, {@code server.shutdown=graceful} and the {@code server.tomcat.*} connector
 * settings Petrel has keep their meaning; one it has not is logged as ignored.
 *
 * <p>Properties: {@code petrel.enabled} (default true; false leaves Tomcat's own NIO connector),
 * {@code petrel.transport} ({@code blocking}, {@code virtual} or {@code nio}, the default),
 * {@code petrel.tls-engine} ({@code jsse}, the default, or {@code native}: BoringSSL, with
 * {@code petrel-tls-native} on the class path) for {@code server.ssl.*}.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({TomcatServletWebServerFactory.class, PetrelHttp11Protocol.class})
@ConditionalOnProperty(prefix = "petrel", name = "enabled", havingValue = "true", matchIfMissing = true)
public class PetrelAutoConfiguration {
    /**
     * The customizer that switches the connector; runs after Boot's own, which set port, address and
     * SSL, and applies the {@code server.tomcat.*} settings Boot bound (see {@link BootConnectorSettings}).
     */
    @Bean
    PetrelTomcatCustomizer petrelTomcatCustomizer(Environment environment, ObjectProvider<ServerProperties> server,
            ObjectProvider<TomcatServerProperties> tomcat) {
        ServerProperties serverProperties = server.getIfAvailable();
        TomcatServerProperties tomcatProperties = tomcat.getIfAvailable();
        BootConnectorSettings settings = serverProperties == null || tomcatProperties == null ? null
                : new BootConnectorSettings(environment, serverProperties, tomcatProperties);
        return new PetrelTomcatCustomizer(environment.getProperty("petrel.transport", "nio"),
                environment.getProperty("petrel.tls-engine"), settings);
    }
}
