package io.xferbench.server.model;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.NotEnoughSpaceException;
import io.xferbench.core.data.TempFiles;
import io.xferbench.core.data.UploadTemp;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.UploadReport;
import io.xferbench.server.request.Refused;
import io.xferbench.server.request.VerifyFailed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * One upload's way into the data directory, the same for every I/O model: the checks before the body, a
 * {@link TempFiles} file in the data directory's hidden {@code .uploads/} ({@link DataDirectory#createUploadTemp};
 * hidden names are reserved, so no client can ask for it), the verification of the received bytes, and {@code renameat(2)} over the target (both from directory descriptors, {@link DataDirectory#placeUpload}), so a reader sees the old file or the
 * whole new one, never a part.
 *
 * <ol>
 *   <li>{@link #refusal} and {@link #open}: everything that can be refused is refused before the client sends a
 *       byte: no name, a body over {@code --max-upload}, a name outside the data directory or a generated file's
 *       ({@link DataDirectory#isGeneratedName}), a body that with its
 *       checksum record and metadata ({@link DataDirectory#RECORD_AND_METADATA_ROOM}, as a generation) would not fit
 *       in the file system's usable space (NO_SPACE).</li>
 *   <li>{@link #verify}: exactly {@code size} bytes whose CRC32C equals the request's; receivers that could not
 *       checksum the bytes as they passed get the file re-read (timed as verify nanos). With FSYNC the file is
 *       fsynced (timed as fsync nanos).</li>
 *   <li>{@link #place}: the rename, then the checksum record of the verified bytes, keyed by the identity of the
 *       renamed inode read from the temp file's descriptor (still open, so no reopen by name) so no record ever pairs
 *       one file's checksum with another's bytes; with FSYNC the directory is fsynced too.</li>
 * </ol>
 * {@link #close} removes the temp file unless it was placed: on every failure path, before the client hears why, so
 * nobody acting on the error finds a partial file or a disk still full of it.
 */
final class TempFilePlacement implements UploadPlacement {
    private static final Logger LOG = Logger.getLogger(TempFilePlacement.class.getName());
    /** The received bytes are not the declared ones. */
    private final Request request;
    private final DataDirectory data;
    private final Path target;
    private final UploadTemp tmp;
    private final FileChannel file;

    private TempFilePlacement(Request request, DataDirectory data, Path target, UploadTemp tmp) {
        this.request = request;
        this.data = data;
        this.target = target;
        this.tmp = tmp;
        this.file = tmp.channel();
    }

    /**
     * Resolves the target (the same real-path rules as every name) and creates the temp file.
     *
     * @throws Refused when the body would not fit
     */
    static UploadPlacement open(DataDirectory data, Request request) throws IOException {
        Path target = data.resolveNew(request.name());
        try {
            data.requireSpace(target.getParent(), "an upload", request.size());
        } catch (NotEnoughSpaceException e) {
            throw new Refused(Status.NO_SPACE, e.getMessage());
        }
        return new TempFilePlacement(request, data, target, data.createUploadTemp(target));
    }

    @Override
    public FileChannel file() {
        return file;
    }

    @Override
    public Path tmp() {
        return tmp.path();
    }

    /**
     * Byte count and CRC32C of the received file, then fsync if asked.
     *
     * @param inlineCrc the receiver's CRC32C of the bytes, or {@link FileReceiver#NOT_CHECKSUMMED} to re-read the file
     * @param scratch   a buffer for the re-read (asked for only then)
     */
    @Override
    public UploadReport verify(long inlineCrc, long serverNanos, Supplier<ByteBuffer> scratch) throws IOException {
        long size = file.size();
        if (size != request.size()) {
            throw new VerifyFailed("the file holds " + size + " bytes, the client declared " + request.size());
        }
        long verifyNanos = 0;
        boolean reread = inlineCrc == FileReceiver.NOT_CHECKSUMMED;
        int crc;
        if (reread) {
            long t0 = System.nanoTime();
            crc = checksum(scratch.get(), size);
            verifyNanos = System.nanoTime() - t0;
        } else {
            crc = (int) inlineCrc;
        }
        if (crc != request.crc32c()) {
            throw new VerifyFailed(String.format("CRC32C of the %d received bytes is %08x, the client declared %08x",
                    size, crc, request.crc32c()));
        }
        long fsyncNanos = UploadReport.NOT_SYNCED;
        if (request.has(Flags.FSYNC)) {
            long t0 = System.nanoTime();
            file.force(true);
            fsyncNanos = System.nanoTime() - t0;
        }
        return new UploadReport(size, crc, reread, serverNanos, verifyNanos, fsyncNanos);
    }

    /** Renames the verified file over the target and records its checksum; @return the report with the directory's fsync */
    @Override
    public UploadReport place(UploadReport verified) throws IOException {
        long directoryFsyncNanos = data.placeUpload(tmp, target, verified.fsynced());
        // From the descriptor still open on the renamed inode: no reopen of the target by name.
        data.recordPlaced(tmp, target, verified.bytes(), verified.crc32c());
        close();
        if (!verified.fsynced()) {
            return verified;
        }
        return new UploadReport(verified.bytes(), verified.crc32c(), verified.checksumReread(), verified.serverNanos(),
                verified.verifyNanos(), verified.fsyncNanos() + directoryFsyncNanos);
    }

    @Override
    public void write(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            file.write(bytes);
        }
    }

    private int checksum(ByteBuffer buffer, long size) throws IOException {
        CRC32C crc = new CRC32C();
        long pos = 0;
        while (pos < size) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), size - pos));
            int n = file.read(buffer, pos);
            if (n < 0) {
                throw new VerifyFailed("the file ended at " + pos + " of " + size + " bytes while checksumming");
            }
            crc.update(buffer.flip());
            pos += n;
        }
        return (int) crc.getValue();
    }

    /** Closes the file and removes the temp file unless it was placed ({@link UploadTemp#close}); idempotent. */
    @Override
    public void close() {
        try {
            tmp.close();
        } catch (IOException e) {
            LOG.warning("cannot remove temp file " + tmp.path() + ": " + e);
        }
    }
}
