package dev.petrel.server.config;

import java.io.IOException;
import java.io.Serial;

/**
 * A TLS configuration that cannot be used: a file missing or unreadable, not PEM, holding no
 * certificate, an encrypted or mismatched key, a certificate outside its validity dates, a wrong
 * PKCS#12 password, or a setting the JDK does not support. The message is one line that names the
 * file and the problem, ready to print as it is; the cause, when there is one, is for debugging.
 *
 * <p>An {@link IOException}, as the files it is about are read at start-up: starting a server
 * fails with one exception type whether the port or a certificate is the problem.
 */
public final class TlsConfigException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A configuration error without an underlying exception.
     *
     * @param message one line naming the file and the problem
     */
    public TlsConfigException(String message) {
        super(message);
    }

    /**
     * A configuration error caused by an I/O or security exception.
     *
     * @param message one line naming the file and the problem
     * @param cause the underlying failure
     */
    public TlsConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
