package dev.petrel.server.tls;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A TLS handshake between a client engine and a server engine in memory: records go from one
 * engine's wrap straight into the other's unwrap, no socket. The client trusts any certificate, so
 * tests can look at what the server sent.
 */
final class MemoryHandshake {
    private MemoryHandshake() {}

    /** What the client saw. */
    record Result(SSLSession clientSession, String applicationProtocol, List<X509Certificate> serverChain) {
        X509Certificate serverCertificate() {
            return serverChain.getFirst();
        }

        String serverName() {
            return HostNames.dnsNames(serverCertificate()).getFirst();
        }
    }

    /** A client engine sending {@code serverName} by SNI (none when null), offering ALPN http/1.1. */
    static SSLEngine client(String serverName, String... protocols) throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustAll()}, null);
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        if (protocols.length > 0) parameters.setProtocols(protocols);
        engine.setSSLParameters(parameters);
        return engine;
    }

    /** Shakes hands with a fresh client naming {@code serverName}. */
    static Result run(String serverName, SSLEngine server) throws GeneralSecurityException, SSLException {
        return run(client(serverName), server);
    }

    /**
     * Moves records between the two engines until both finish the handshake.
     *
     * @throws SSLException when either side fails it
     */
    static Result run(SSLEngine client, SSLEngine server) throws SSLException {
        int packet = Math.max(client.getSession().getPacketBufferSize(), server.getSession().getPacketBufferSize());
        int app = Math.max(client.getSession().getApplicationBufferSize(), server.getSession().getApplicationBufferSize());
        ByteBuffer clientToServer = ByteBuffer.allocate(packet * 4);
        ByteBuffer serverToClient = ByteBuffer.allocate(packet * 4);
        ByteBuffer clientApp = ByteBuffer.allocate(app);
        ByteBuffer serverApp = ByteBuffer.allocate(app);
        ByteBuffer empty = ByteBuffer.allocate(0);
        client.beginHandshake();
        server.beginHandshake();
        for (int round = 0; round < 200; round++) {
            client.wrap(empty, clientToServer);
            runTasks(client);
            server.wrap(empty, serverToClient);
            runTasks(server);
            clientToServer.flip();
            serverToClient.flip();
            boolean moved = clientToServer.hasRemaining() || serverToClient.hasRemaining();
            while (serverToClient.hasRemaining()) {
                int before = serverToClient.remaining();
                client.unwrap(serverToClient, clientApp);
                runTasks(client);
                if (serverToClient.remaining() == before) break;
            }
            while (clientToServer.hasRemaining()) {
                int before = clientToServer.remaining();
                server.unwrap(clientToServer, serverApp);
                runTasks(server);
                if (clientToServer.remaining() == before) break;
            }
            clientToServer.compact();
            serverToClient.compact();
            if (!moved && done(client) && done(server)) {
                SSLSession session = client.getSession();
                List<X509Certificate> chain = Arrays.stream(session.getPeerCertificates())
                        .map(X509Certificate.class::cast).toList();
                return new Result(session, client.getApplicationProtocol(), chain);
            }
        }
        throw new AssertionError("handshake did not finish: client " + client.getHandshakeStatus() + ", server "
                + server.getHandshakeStatus());
    }

    private static boolean done(SSLEngine engine) {
        HandshakeStatus status = engine.getHandshakeStatus();
        return status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
    }

    private static void runTasks(SSLEngine engine) {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) task.run();
    }

    /** Trusts every server, records nothing: the test reads the session. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
