package io.xferbench.server.request;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The server's token check, the same for both protocols. */
public final class Tokens {
    private Tokens() {
    }

    /** Compares digests: equal length, so the comparison time says nothing about the token's length either. */
    public static boolean matches(String expected, String given) {
        return MessageDigest.isEqual(sha256(expected), sha256(given));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
