package io.xferbench.core.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** PEM files read with the JDK alone: certificates, a PKCS#8 private key, and a trust store of certificates. */
public final class PemFiles {
    private static final Pattern PRIVATE_KEY = Pattern.compile(
            "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
    /** The algorithms a PKCS#8 key is tried as: the encoding names its algorithm only by OID. */
    private static final List<String> KEY_ALGORITHMS = List.of("EC", "RSA", "Ed25519", "Ed448");

    private PemFiles() {
    }

    /** Every certificate of {@code file}, in file order (a server chain: leaf first). */
    public static List<X509Certificate> certificates(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        List<X509Certificate> chain = new ArrayList<>();
        try {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes))) {
                chain.add((X509Certificate) c);
            }
        } catch (GeneralSecurityException e) {
            throw new IOException(file + ": not a PEM certificate file (" + e.getMessage() + ")", e);
        }
        if (chain.isEmpty()) {
            throw new IOException(file + ": no certificate in it (expected PEM '-----BEGIN CERTIFICATE-----' blocks)");
        }
        return chain;
    }

    /** The PKCS#8 private key of {@code file} (PEM {@code PRIVATE KEY}; an encrypted or PKCS#1 key is refused by name). */
    public static PrivateKey privateKey(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        Matcher m = PRIVATE_KEY.matcher(text);
        if (!m.find()) {
            throw new IOException(file + ": no unencrypted PKCS#8 key in it (expected '-----BEGIN PRIVATE KEY-----'; "
                    + "convert with 'openssl pkcs8 -topk8 -nocrypt')");
        }
        PKCS8EncodedKeySpec spec;
        try {
            spec = new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(m.group(1)));
        } catch (IllegalArgumentException truncated) {
            throw new IOException(file + ": the key's base64 is damaged (" + truncated.getMessage() + ")", truncated);
        }
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException wrongAlgorithm) {
                // the next one
            }
        }
        throw new IOException(file + ": a PKCS#8 key of none of " + KEY_ALGORITHMS);
    }

    /** A trust store holding exactly the certificates of {@code file}: a client trusts these and nothing else. */
    public static KeyStore trustStore(Path file) throws IOException {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (X509Certificate c : certificates(file)) {
                store.setCertificateEntry("trusted-" + i++, c);
            }
            return store;
        } catch (GeneralSecurityException e) {
            throw new IOException(file + ": cannot make a trust store of it: " + e.getMessage(), e);
        }
    }

    /** {@code der} as a PEM block of {@code type} (CERTIFICATE, PRIVATE KEY), lines of 64 characters. */
    public static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }
}
