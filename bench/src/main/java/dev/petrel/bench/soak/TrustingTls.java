package dev.petrel.bench.soak;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS client of the faults, which trusts any certificate: a fault only needs a handshake with
 * the server on 127.0.0.1 to do something wrong after it, and who the server is does not matter
 * there (the soak's own clients check the certificate).
 */
final class TrustingTls {
    private TrustingTls() {}

    /** A socket factory for TLS 1.3 and 1.2 that accepts every server certificate. */
    static SSLSocketFactory socketFactory() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new X509ExtendedTrustManager[] {new TrustingManager()}, null);
            return context.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has TLS", e);
        }
    }

    /** Accepts every chain: see the class comment. */
    private static final class TrustingManager extends X509ExtendedTrustManager {
        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("a client only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            throw new UnsupportedOperationException("a client only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            throw new UnsupportedOperationException("a client only");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
