package io.xferbench.core.net;

/**
 * One upload as the client saw it. The server answers OK only after it matched the byte count and CRC32C and
 * renamed the file into place; the client checks the server's numbers against its own once more.
 *
 * @param bytes          bytes the server says it received and wrote
 * @param expectedBytes  bytes the client sent
 * @param expectedCrc32c CRC32C of the body the client sent
 * @param serverCrc32c   CRC32C the server computed over what it received
 * @param checksumReread whether the server had to re-read its file to checksum it (zero-copy receivers)
 * @param clientNanos    request written → upload result read (includes the server's verify and fsync)
 * @param serverNanos    server's time from ready frame written to last body byte in the file
 * @param verifyNanos    server's time re-reading the file for the checksum (0 when checksummed inline)
 * @param fsyncNanos     server's fsync of file and directory, -1 when not asked
 */
public record UploadResult(long bytes, long expectedBytes, int expectedCrc32c, int serverCrc32c, boolean checksumReread,
                           long clientNanos, long serverNanos, long verifyNanos, long fsyncNanos) {

    public boolean verified() {
        return bytes == expectedBytes && expectedCrc32c == serverCrc32c;
    }

    /** Why verification failed, or null. */
    public String failure() {
        if (bytes != expectedBytes) {
            return "server received " + bytes + " bytes, sent " + expectedBytes;
        }
        if (expectedCrc32c != serverCrc32c) {
            return String.format("CRC32C mismatch: server computed %08x, sent %08x", serverCrc32c, expectedCrc32c);
        }
        return null;
    }
}
