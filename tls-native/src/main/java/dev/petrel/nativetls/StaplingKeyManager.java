package dev.petrel.nativetls;

import dev.petrel.server.TlsEngineProvider;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Petrel's key manager, stapling an OCSP response when the certificate it is for is chosen. The
 * choice is made in BoringSSL's certificate callback, per handshake, after SNI: the moment to say
 * what to staple, so a client that gets another certificate by its name gets no response that
 * is not about it.
 */
final class StaplingKeyManager extends X509ExtendedKeyManager {
    private final X509ExtendedKeyManager delegate;
    private final List<TlsEngineProvider.Staple> staples;

    StaplingKeyManager(X509ExtendedKeyManager delegate, List<TlsEngineProvider.Staple> staples) {
        this.delegate = delegate;
        this.staples = List.copyOf(staples);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        String alias = delegate.chooseEngineServerAlias(keyType, issuers, engine);
        if (alias != null && engine instanceof ReferenceCountedOpenSslEngine openSsl) {
            X509Certificate[] chain = delegate.getCertificateChain(alias);
            byte[] response = chain == null || chain.length == 0 ? null : responseFor(chain[0]);
            if (response != null) openSsl.setOcspResponse(response);
        }
        return alias;
    }

    private byte[] responseFor(X509Certificate certificate) {
        for (TlsEngineProvider.Staple staple : staples) {
            if (staple.certificate().equals(certificate)) return staple.response();
        }
        return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return delegate.chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return delegate.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return delegate.getPrivateKey(alias);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return delegate.getServerAliases(keyType, issuers);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return delegate.getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return delegate.chooseClientAlias(keyTypes, issuers, socket);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return delegate.chooseEngineClientAlias(keyTypes, issuers, engine);
    }
}
