package io.xferbench.client.run;

import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.UploadResult;

/**
 * One transfer as the driver sees it, whatever its direction.
 *
 * @param bytes           body bytes moved
 * @param clientNanos     request written → transfer complete (download: last body byte read; upload: result read)
 * @param failure         why verification failed, or null
 * @param residencyBefore download: page-cache residency of the server's file before, per mille; -1 unknown
 * @param residencyAfter  likewise after
 * @param serverNanos     the server's own time for the body (download: header to last byte sent; upload: ready frame
 *                        to last byte in the file), -1 unknown
 * @param verifyNanos     upload: the server re-reading its file for the CRC32C (0 when checksummed inline), else -1
 * @param fsyncNanos      upload: the server's fsync of file and directory, -1 when not asked
 */
public record Outcome(long bytes, long clientNanos, String failure, int residencyBefore, int residencyAfter, long serverNanos,
               long verifyNanos, long fsyncNanos) {

    public static Outcome of(DownloadResult d) {
        return new Outcome(d.bytes(), d.clientNanos(), d.verified() ? null : d.failure(), d.residencyBefore(),
                d.residencyAfter(), d.serverNanos(), -1, -1);
    }

    Outcome withResidency(int before, int after) {
        return new Outcome(bytes, clientNanos, failure, before, after, serverNanos, verifyNanos, fsyncNanos);
    }

    public static Outcome of(UploadResult u) {
        return new Outcome(u.bytes(), u.clientNanos(), u.verified() ? null : u.failure(), -1, -1, u.serverNanos(),
                u.verifyNanos(), u.fsyncNanos());
    }
}
