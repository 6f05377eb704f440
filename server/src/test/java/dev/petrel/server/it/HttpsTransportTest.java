package dev.petrel.server.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A test run once per HTTPS {@link Transport}: what only a TLS port does. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@EnumSource(value = Transport.class, names = {"BLOCKING_TLS", "VIRTUAL_TLS", "NIO_TLS", "NIO_INLINE_TLS"})
@interface HttpsTransportTest {}
