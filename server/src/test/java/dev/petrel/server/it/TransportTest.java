package dev.petrel.server.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A test run once per {@link Transport}: every transport kind, and nio with handlers inline on
 * its event loop, each over plain HTTP and over HTTPS. The method takes the variant as its first parameter; a transport added to
 * {@code TransportKind} is covered once it is added to {@link Transport}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@EnumSource(Transport.class)
@interface TransportTest {}
