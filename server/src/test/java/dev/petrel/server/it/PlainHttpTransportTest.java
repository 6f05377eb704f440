package dev.petrel.server.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A test run once per plain HTTP {@link Transport} only: for behaviour a TLS client cannot
 * show the same way. A connection waiting in the accept backlog cannot send its request over TLS
 * (its handshake waits for the server to accept it), and a client turned away for overload on a
 * TLS port gets no clear-text 503. {@code HttpsTest} covers those cases over TLS.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@EnumSource(value = Transport.class, names = {"BLOCKING", "VIRTUAL", "NIO", "NIO_INLINE"})
@interface PlainHttpTransportTest {}
