package io.xferbench.core.data;

import io.xferbench.nativeio.FileIdentity;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a checksum record file holds: one line, {@code VERSION <FileIdentity.encode()> <crc32c-hex>}. It owns the record
 * format and its version, and the rule that a record vouches only for the identity it names: a line of another
 * identity, another version or another shape reads as no record (the file is hashed again), never as an error. Apart
 * from {@link ChecksumRecords} so that the format, and what a version change invalidates, is decided in one place.
 */
final class ChecksumRecordLine {
    /** 4: records made since files are written back before they are hashed; a 3 may describe bytes a mapping changed since. */
    static final String VERSION = "4";
    private static final int FIELDS = 8;

    private ChecksumRecordLine() {
    }

    /** The record of {@code crc32c} for the bytes with identity {@code id}, as written to the record file. */
    static byte[] encode(FileIdentity id, int crc32c) {
        return (VERSION + " " + id.encode() + " " + Integer.toHexString(crc32c) + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** The CRC32C {@code content} (a record file's text) records for exactly the identity {@code id}; or null. */
    static Integer crc32cOf(String content, FileIdentity id) {
        String[] parts = content.trim().split(" ");
        if (parts.length != FIELDS || !parts[0].equals(VERSION)) {
            return null;
        }
        try {
            FileIdentity recorded = FileIdentity.decode(String.join(" ", Arrays.asList(parts).subList(1, FIELDS - 1)));
            return recorded.equals(id) ? Integer.parseUnsignedInt(parts[FIELDS - 1], 16) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
