package io.xferbench.core.net;

/**
 * One verified (or failed) download as the client saw it.
 *
 * @param bytes            bytes received
 * @param expectedBytes    length the server promised
 * @param checksummed      whether the CRC32C was computed (--verify crc32c)
 * @param expectedCrc32c   CRC32C the body must have: the generator's for a generated file, else the announced one
 * @param announcedCrc32c  CRC32C the server announced in its header
 * @param actualCrc32c     CRC32C of what arrived (0 unless checksummed)
 * @param clientNanos      request written → last body byte read
 * @param serverNanos      server's time from header written to body sent
 * @param residencyBefore  page-cache residency of the file before the transfer, per mille, -1 unknown
 * @param residencyAfter   likewise after
 */
public record DownloadResult(long bytes, long expectedBytes, boolean checksummed, int expectedCrc32c, int announcedCrc32c,
                             int actualCrc32c, long clientNanos, long serverNanos, int residencyBefore, int residencyAfter) {

    public boolean verified() {
        return failure() == null;
    }

    /** Why verification failed, or null. */
    public String failure() {
        if (bytes != expectedBytes) {
            return "received " + bytes + " bytes, expected " + expectedBytes;
        }
        return checksummed ? new Crc32cCheck(expectedCrc32c, announcedCrc32c, actualCrc32c).failure() : null;
    }
}
