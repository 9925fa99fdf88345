package io.xferbench.server;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TempFiles;
import io.xferbench.nativeio.FileIdentity;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.UploadReport;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * Serves UPLOAD requests of one connection: socket → temp file → verified → renamed into place.
 *
 * <ol>
 *   <li>Everything that can be refused is refused before the client sends a byte: unknown or unavailable method,
 *       a length the method cannot write correctly (UNAVAILABLE), no name or a name outside the data directory,
 *       a body larger than the file system's usable space (NO_SPACE).</li>
 *   <li>The body goes to a {@link TempFiles} name ({@code .tmp-<owner>-<name>-<random>}) in the target's directory
 *       (hidden names are reserved, so no client can ask for it), through the method's receiver.</li>
 *   <li>The upload completes only if the file holds exactly {@code size} bytes and their CRC32C equals the
 *       request's. Receivers that see the bytes in user space checksum them as they pass; zero-copy receivers
 *       cannot, and the server re-reads the temp file instead (timed separately as verify nanos).</li>
 *   <li>With FSYNC the file is fsynced before the rename and its directory after it (timed as fsync nanos).</li>
 *   <li>{@code rename(2)} over the target: a reader sees the old file or the whole new one, never a part.</li>
 *   <li>The checksum record of the verified bytes is written, keyed by the placed file's identity, if the name still
 *       holds the verified inode, so no record ever pairs one file's checksum with another's bytes.</li>
 * </ol>
 * On any failure the temp file is removed. A failure after the whole body was read is answered and the
 * connection goes on; a failure inside the body is answered, the rest of the body is drained (bounded by its
 * declared size and the idle timeout) so the client can read the answer, and the connection is closed, since
 * where the next request starts is no longer known.
 */
final class UploadHandler implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(UploadHandler.class.getName());
    private static final int CHECKSUM_CHUNK = 1 << 20;

    private final DataDirectory data;
    private final ServerConfig config;
    private final PerConnection<FileReceiver> receivers;
    private ByteBuffer checksumBuffer;

    UploadHandler(DataDirectory data, ServerConfig config, BufferBudget buffers) {
        this.data = data;
        this.config = config;
        this.receivers = new PerConnection<>(buffers);
    }

    /** @return whether the connection is still in a state to read the next request */
    boolean handle(Request request, SocketChannel socket) throws IOException {
        ReceiverMethod method = UploadMethods.byId(request.method()).orElse(null);
        if (method == null) {
            return refuse(socket, Status.BAD_REQUEST, "unknown upload method '" + request.method() + "' (known: "
                    + String.join(", ", UploadMethods.ids()) + ")");
        }
        Availability availability = method.availability();
        if (!availability.isAvailable()) {
            return refuse(socket, Status.UNAVAILABLE, method.id() + ": " + availability.unavailableReason());
        }
        if (request.name().isEmpty()) {
            return refuse(socket, Status.BAD_REQUEST, "an upload needs the name of the file to create");
        }
        if (request.size() > config.maxUpload()) {
            return refuse(socket, Status.TOO_LARGE, "an upload of " + request.size() + " bytes exceeds --max-upload "
                    + config.maxUpload());
        }
        try {
            method.checkSupported(request.size());
        } catch (UnsupportedTransferException e) {
            return refuse(socket, Status.UNAVAILABLE, method.id() + ": " + e.getMessage());
        }
        Path target = data.resolveNew(request.name());
        Path dir = target.getParent();
        long usable = Files.getFileStore(dir).getUsableSpace();
        if (request.size() > usable) {
            return refuse(socket, Status.NO_SPACE, "an upload of " + request.size() + " bytes does not fit: "
                    + usable + " bytes usable in the data directory");
        }
        TransferOptions options = new TransferOptions(request.bufferSize(), request.has(Flags.UNALIGNED));
        FileReceiver receiver = receivers.get(method.id(), options, method.bufferBytes(options), () -> method.newReceiver(options));

        Path tmp = TempFiles.next(dir, target.getFileName().toString());
        boolean placed = false;
        FileIdentity verifiedInode;
        try {
            UploadReport report;
            try (FileChannel file = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                Frames.writeFully(socket, ResponseCodec.uploadReady(request.size()));
                long start = System.nanoTime();
                long crc;
                try {
                    crc = receiver.receive(socket, file, tmp, request.size());
                } catch (IOException | RuntimeException e) {
                    // Gone (and its space released) before the client hears why, so nobody acting on the error
                    // finds a partial file or a disk still full of it.
                    file.close();
                    deleteQuietly(tmp);
                    receivers.discard(method.id(), options);
                    failedInBody(socket, method, request, e);
                    return false;
                }
                long serverNanos = System.nanoTime() - start;
                try {
                    report = verify(request, file, crc, serverNanos);
                } catch (VerifyException e) {
                    LOG.info(() -> method.id() + " upload of " + request.name() + " refused: " + e.getMessage());
                    deleteQuietly(tmp);
                    return refuse(socket, Status.VERIFY_FAILED, method.id() + ": " + e.getMessage());
                }
                verifiedInode = FileIdentity.of(file);
            } catch (IOException e) {
                // After the body: the stream is in step, answer and go on.
                deleteQuietly(tmp);
                return refuse(socket, FailureStatus.of(e), method.id() + ": upload of " + request.name() + " not stored: " + e.getMessage());
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                placed = true;
                // Keyed by the placed file's identity: no record can pair these bytes with another file.
                data.recordPlaced(target, verifiedInode, report.crc32c());
                if (report.fsynced()) {
                    long t0 = System.nanoTime();
                    fsyncDirectory(dir);
                    report = new UploadReport(report.bytes(), report.crc32c(), report.checksumReread(), report.serverNanos(),
                            report.verifyNanos(), report.fsyncNanos() + System.nanoTime() - t0);
                }
            } catch (IOException e) {
                if (!placed) {
                    deleteQuietly(tmp);
                }
                return refuse(socket, FailureStatus.of(e), method.id() + ": upload of " + request.name() + " not put in place: " + e.getMessage());
            }
            Frames.writeFully(socket, ResponseCodec.uploadResult(report));
            return true;
        } finally {
            if (!placed) {
                deleteQuietly(tmp);
            }
        }
    }

    /** Byte count, CRC32C (re-reading the file when the receiver could not checksum), then fsync if asked. */
    private UploadReport verify(Request request, FileChannel file, long inlineCrc, long serverNanos) throws IOException {
        long size = file.size();
        if (size != request.size()) {
            throw new VerifyException("the file holds " + size + " bytes, the client declared " + request.size());
        }
        long verifyNanos = 0;
        boolean reread = inlineCrc == FileReceiver.NOT_CHECKSUMMED;
        int crc;
        if (reread) {
            long t0 = System.nanoTime();
            crc = checksum(file, size);
            verifyNanos = System.nanoTime() - t0;
        } else {
            crc = (int) inlineCrc;
        }
        if (crc != request.crc32c()) {
            throw new VerifyException(String.format("CRC32C of the %d received bytes is %08x, the client declared %08x",
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

    private int checksum(FileChannel file, long size) throws IOException {
        if (checksumBuffer == null) {
            checksumBuffer = ByteBuffer.allocateDirect(CHECKSUM_CHUNK);
        }
        CRC32C crc = new CRC32C();
        long pos = 0;
        while (pos < size) {
            checksumBuffer.clear().limit((int) Math.min(CHECKSUM_CHUNK, size - pos));
            int n = file.read(checksumBuffer, pos);
            if (n < 0) {
                throw new VerifyException("the file ended at " + pos + " of " + size + " bytes while checksumming");
            }
            crc.update(checksumBuffer.flip());
            pos += n;
        }
        return (int) crc.getValue();
    }

    private static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    /**
     * The receiver failed with part of the body possibly still unread: answer, then drain what the client may
     * still be sending so that it gets to read the answer instead of a reset, then let the connection close.
     */
    private void failedInBody(SocketChannel socket, ReceiverMethod method, Request request, Exception e) {
        Status status = FailureStatus.of(e);
        LOG.info(() -> method.id() + " upload of " + request.name() + " failed in the body: " + e);
        try {
            Frames.writeFully(socket, ResponseCodec.error(status, method.id() + ": upload of " + request.name()
                    + " failed, nothing stored: " + e.getMessage()));
            socket.shutdownOutput();
            drain(socket, request.size());
        } catch (IOException ignored) {
            // The client is gone: nothing left to tell it.
        }
    }

    private void drain(SocketChannel socket, long max) throws IOException {
        socket.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, config.idleTimeout().toMillis()));
        InputStream in = socket.socket().getInputStream();
        byte[] sink = new byte[64 * 1024];
        long left = max;
        try {
            while (left > 0) {
                int n = in.read(sink, 0, (int) Math.min(sink.length, left));
                if (n < 0) {
                    return;
                }
                left -= n;
            }
        } catch (SocketTimeoutException e) {
            // The client stalled: stop waiting for it.
        }
    }


    private boolean refuse(SocketChannel socket, Status status, String message) throws IOException {
        Frames.writeFully(socket, ResponseCodec.error(status, message));
        return true;
    }

    private static void deleteQuietly(Path tmp) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            LOG.warning("cannot remove temp file " + tmp + ": " + e);
        }
    }

    @Override
    public void close() {
        receivers.close();
    }

    /** The received bytes are not the declared ones. */
    static final class VerifyException extends IOException {
        VerifyException(String message) {
            super(message);
        }
    }
}
