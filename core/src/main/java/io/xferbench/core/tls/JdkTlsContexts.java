package io.xferbench.core.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The JDK's SSLContexts for both ends: a server's from its {@link TlsMaterial}, a client's trusting exactly one PEM file
 * (the run's certificate). There is deliberately no trust-all context: a benchmark that skips verification measures a
 * handshake nobody runs.
 */
public final class JdkTlsContexts {
    private static final char[] IN_MEMORY = new char[0];

    private JdkTlsContexts() {
    }

    public static SSLContext server(TlsMaterial material) throws IOException {
        List<X509Certificate> chain = PemFiles.certificates(material.certificateChain());
        try {
            PrivateKey key = PemFiles.privateKey(material.privateKey());
            checkPair(key, chain.get(0), material);
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("server", key, IN_MEMORY,
                    chain.toArray(X509Certificate[]::new));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, IN_MEMORY);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException(material.privateKey() + " does not go with " + material.certificateChain() + ": " + e.getMessage(), e);
        }
    }

    /** A key that does not sign for the leaf certificate fails here, in one line, not at every client's handshake. */
    private static void checkPair(PrivateKey key, X509Certificate leaf, TlsMaterial material) throws GeneralSecurityException, IOException {
        String algorithm = switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            default -> key.getAlgorithm(); // Ed25519, Ed448 name their own signature
        };
        byte[] probe = "xferbench key check".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(probe);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        try {
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(probe);
            if (verifier.verify(signature)) {
                return;
            }
        } catch (java.security.InvalidKeyException differentAlgorithm) {
            // told below
        }
        throw new IOException(material.privateKey() + " is not the private key of the first certificate in "
                + material.certificateChain());
    }

    /** A client context trusting the certificates of {@code trusted} alone (hostname checks are the engine's caller's). */
    public static SSLContext client(Path trusted) throws IOException {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(PemFiles.trustStore(trusted));
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException(trusted + ": cannot trust it: " + e.getMessage(), e);
        }
    }
}
