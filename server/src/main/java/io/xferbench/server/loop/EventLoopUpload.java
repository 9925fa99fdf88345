package io.xferbench.server.loop;

import io.xferbench.core.protocol.Request;
import io.xferbench.server.model.UploadPlacement;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * An upload's body on its way from an event loop to its temp file: the loop hands over what arrived, one chunk at a
 * time, and the file pool writes and checksums it (reading pauses meanwhile, so the pool's pace is the back-pressure).
 * The fields the loop reads are touched on the loop only; the pool touches the file and the checksum, one task at a
 * time, handed over through the executors.
 */
final class EventLoopUpload implements AutoCloseable {
    final Request request;
    final UploadPlacement placement;
    final long startNanos = System.nanoTime();
    private final CRC32C crc = new CRC32C();
    private long handedOver;
    /** A chunk is on the pool now. */
    boolean writing;

    EventLoopUpload(Request request, UploadPlacement placement) {
        this.request = request;
        this.placement = placement;
    }

    /** Body bytes not yet handed over. */
    long remaining() {
        return request.size() - handedOver;
    }

    /** On the loop: {@code n} more bytes go to the pool. */
    void handOver(int n) {
        handedOver += n;
        writing = true;
    }

    /** On the pool: writes {@code chunk} at the end of the file and checksums it. */
    void write(ByteBuffer chunk) throws IOException {
        crc.update(chunk.duplicate());
        placement.write(chunk);
    }

    /** On the pool, after the last write: the CRC32C of the body. */
    long crc32c() {
        return crc.getValue();
    }

    /** Gives up the upload: its temp file is removed (a loop that stopped cannot take the chunk's result back). */
    @Override
    public void close() {
        placement.close();
    }
}
