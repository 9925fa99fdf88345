package io.xferbench.core.data;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where a file's checksum record lives: a hidden sibling, {@code .NAME.crc32c}. For a NAME over
 * {@value #PLAIN_MAX_BYTES} bytes that would exceed NAME_MAX, so such a name's record is
 * {@code ..START-HASH.crc32c}: the name's start cut to fit, and 128 bits of the SHA-256 of the whole name, so names
 * that share a start get records of their own. No served name starts with '.', so no plain record starts with "..":
 * the two forms never meet. Should two hashes ever meet, the record still never vouches for the other file's bytes: its
 * content names the identity of the bytes it was computed from ({@link ChecksumRecordLine}), so the other file is hashed instead.
 */
final class ChecksumRecordName {
    private static final String SUFFIX = ".crc32c";
    /** Names up to this long keep the record name they always had (existing data directories keep their records). */
    static final int PLAIN_MAX_BYTES = NameMax.BYTES - ".".length() - SUFFIX.length();
    private static final String LONG_MARK = "..";
    private static final int HASH_BYTES = 16;
    /** What is left of NAME_MAX for a long name's start: 213 bytes. */
    static final int START_MAX_BYTES = NameMax.BYTES - LONG_MARK.length() - "-".length() - 2 * HASH_BYTES
            - SUFFIX.length();

    private ChecksumRecordName() {
    }

    /** The record of {@code file}, beside it. */
    static Path of(Path file) {
        return file.resolveSibling(of(file.getFileName().toString()));
    }

    /** The record's name of a file named {@code name}. */
    static String of(String name) {
        if (NameMax.fits(name, PLAIN_MAX_BYTES)) {
            return "." + name + SUFFIX;
        }
        return LONG_MARK + NameMax.cut(name, START_MAX_BYTES) + "-" + hash(name) + SUFFIX;
    }

    /**
     * Whether {@code entry} has a shape {@link #of(String)} gives: {@code .NAME.crc32c} with a NAME not starting with
     * '.', or {@code ..START-HASH.crc32c} with 32 hex digits of hash. What a sweep may take for a record.
     */
    static boolean isRecordName(String entry) {
        if (entry.length() <= SUFFIX.length() + 1 || !entry.endsWith(SUFFIX) || !entry.startsWith(".")) {
            return false;
        }
        String inner = entry.substring(1, entry.length() - SUFFIX.length());
        if (!inner.startsWith(".")) {
            return true;
        }
        int dash = inner.length() - 2 * HASH_BYTES - 1;
        return dash >= 2 && inner.charAt(dash) == '-' && inner.substring(dash + 1).chars().allMatch(ChecksumRecordName::isHexDigit);
    }

    private static boolean isHexDigit(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }

    private static String hash(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, HASH_BYTES);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
