package dev.petrel.server.it;

import dev.petrel.server.transport.TransportKind;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A test run once per {@link TransportKind}: the method takes the kind as its first parameter.
 * A transport added to the enum is covered by every such test without further changes.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@EnumSource(TransportKind.class)
@interface TransportTest {}
