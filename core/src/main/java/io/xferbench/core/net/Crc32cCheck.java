package io.xferbench.core.net;

/**
 * The CRC32C rule a downloaded body is judged by, in a timed download and in a load's alike: the body must have the
 * file's CRC32C, and the server must have announced the body's. A server announcing a wrong CRC32C for right bytes is
 * wrong too: a client that takes its word (a named file has nothing else) would pass or fail on a false checksum.
 *
 * @param expected  the file's CRC32C as the client knows it: the generator's, or for a named file the announcement
 * @param announced the CRC32C in the server's download header
 * @param body      the CRC32C of the bytes that arrived
 */
public record Crc32cCheck(int expected, int announced, int body) {

    public boolean ok() {
        return failure() == null;
    }

    /** Why the body or the announcement is wrong, or null. */
    public String failure() {
        if (body != expected) {
            return String.format("CRC32C mismatch: received %08x, expected %08x", body, expected);
        }
        if (announced != body) {
            return String.format("server announced CRC32C %08x, body has %08x", announced, body);
        }
        return null;
    }
}
