package io.xferbench.core.protocol;

/**
 * The server's last word on an upload that it verified and renamed into place.
 *
 * @param bytes          body bytes the server received and wrote (always the requested size when OK)
 * @param crc32c         CRC32C the server computed over what it received (equal to the request's when OK)
 * @param checksumReread true when the receiver never saw the bytes in user space (zero-copy: transfer-from,
 *                       epoll-splice, splice) and the server re-read the written temp file to checksum it;
 *                       false when it checksummed the bytes as they passed through its buffers
 * @param serverNanos    ready frame written → last body byte written to the file (the method's own cost)
 * @param verifyNanos    time spent re-reading the temp file for the checksum (0 when checksummed inline)
 * @param fsyncNanos     fsync of the file and of its directory (FSYNC flag), or -1 when not asked
 */
public record UploadReport(long bytes, int crc32c, boolean checksumReread, long serverNanos, long verifyNanos, long fsyncNanos) {
    public static final long NOT_SYNCED = -1;

    public boolean fsynced() {
        return fsyncNanos != NOT_SYNCED;
    }
}
