package io.xferbench.server.model;

import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.protocol.UploadReport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * One upload's temp file on its way into the data directory, as every model uses it: written (by a receiver through
 * {@link #file}, or an event loop's chunks through {@link #write}), verified, placed, or removed by {@link #close}.
 * The server's is {@link TempFilePlacement}, made by {@link UploadPlacements}.
 */
public interface UploadPlacement extends AutoCloseable {
    /** The re-read's buffer size a caller should offer. */
    int CHECKSUM_CHUNK = 1 << 20;

    FileChannel file();

    Path tmp();

    /** Writes all of {@code bytes} at the file's position: an event loop's chunk of the body. */
    void write(ByteBuffer bytes) throws IOException;

    /**
     * Byte count and CRC32C of the received file, then fsync if asked.
     *
     * @param inlineCrc the receiver's CRC32C of the bytes, or {@link FileReceiver#NOT_CHECKSUMMED} to re-read the file
     * @param scratch   a buffer for the re-read (asked for only then)
     */
    UploadReport verify(long inlineCrc, long serverNanos, Supplier<ByteBuffer> scratch) throws IOException;

    /** Renames the verified file over the target and records its checksum; @return the report with the directory's fsync */
    UploadReport place(UploadReport verified) throws IOException;

    /** Closes the file and removes the temp file unless it was placed; idempotent. */
    @Override
    void close();
}
