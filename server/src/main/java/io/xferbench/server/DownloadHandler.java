package io.xferbench.server;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Prepared;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Trailer;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.server.limits.BodyDeadline;
import io.xferbench.server.limits.BufferBudget;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;

/**
 * Serves DOWNLOAD requests of one connection. Senders are kept per method and options for the connection's
 * life, so buffers and adopted Netty channels are set up once, as a real server would.
 */
final class DownloadHandler implements AutoCloseable {
    private final DataDirectory data;
    private final ServerConfig config;
    private final PerConnection<FileSender> senders;
    private final BodyDeadline body;

    /** @param body the connection's deadline while a body moves; its caller ends it when the request is over */
    DownloadHandler(DataDirectory data, ServerConfig config, BufferBudget buffers, BodyDeadline body) {
        this.data = data;
        this.config = config;
        this.senders = new PerConnection<>(buffers);
        this.body = body;
    }

    /**
     * @param peer the client, as a failure's log names it
     * @return whether the connection is still in a state to read the next request
     */
    boolean handle(Request request, SocketChannel socket, String peer) throws IOException {
        SenderMethod method = DownloadMethods.byId(request.method()).orElse(null);
        if (method == null) {
            return refuse(socket, Status.BAD_REQUEST, "unknown download method '" + request.method() + "' (known: "
                    + String.join(", ", DownloadMethods.ids()) + ")");
        }
        String loopOnly = LoopMethodRefusal.onThreads(method, config.ioModel());
        if (loopOnly != null) {
            return refuse(socket, Status.UNAVAILABLE, loopOnly);
        }
        Availability availability = method.availability();
        if (!availability.isAvailable()) {
            return refuse(socket, Status.UNAVAILABLE, method.id() + ": " + availability.unavailableReason());
        }
        TransferOptions options = new TransferOptions(request.bufferSize(), request.has(Flags.UNALIGNED));
        FileSender sender = senders.get(method.id(), options, method.bufferBytes(options), () -> method.newSender(options));
        try (OpenedFile file = resolve(request, socket)) {
            if (file == null) {
                return true;
            }
            SourceFile source = new SourceFile(file.path(), file.channel(), file.size());
            try {
                sender.checkSupported(source, 0, file.size());
            } catch (UnsupportedTransferException e) {
                return refuse(socket, Status.UNAVAILABLE, method.id() + ": " + e.getMessage());
            }
            // Cache flags on the DOWNLOAD itself: prepared inline, inside the client's timing (older clients, plain
            // use). Without them a PREPARE has done it untimed, and the transfer does nothing but send.
            boolean inline = request.has(Flags.CACHE_COLD) || request.has(Flags.CACHE_WARM);
            int residencyBefore = inline ? CacheControl.prepare(file.path(), request.flags()) : -1;
            InternalFaultProbe.at(InternalFaultProbe.Point.ANSWER, request.name());
            ResponseCork.hold(config, socket);
            // The file's length, not the request's size (meaningless for a named file), sets the body's budget.
            body.moves(file.size());
            AnswerHead.write(socket, ResponseCodec.downloadHeader(new DownloadHeader(file.size(), file.crc32c(), residencyBefore)));
            long start = System.nanoTime();
            try {
                InternalFaultProbe.at(InternalFaultProbe.Point.BODY, request.name());
                sender.send(source, 0, file.size(), socket);
            } catch (IOException | RuntimeException | Error e) {
                // Mid-body the stream cannot carry an error frame: drop the sender and the connection.
                senders.discard(method.id(), options);
                Throwable fault = ServerFault.of(e);
                if (fault != null) {
                    throw new FailedPastTheHead(fault, e);
                }
                BodyCutShort.log(config.ioModel(), peer, request, method.id(), e);
                return false;
            }
            body.moved();
            long nanos = System.nanoTime() - start;
            Frames.writeFully(socket, ResponseCodec.trailer(Trailer.ok(nanos, inline ? CacheControl.residency(file.path()) : -1)));
            ResponseCork.release(config, socket);
        }
        return true;
    }

    /**
     * PREPARE: the file a DOWNLOAD with the same name, size and flags would send, generated if needed and put into the
     * cache state the flags ask for, outside any transfer's timing. Answers the residency found and left.
     *
     * @return whether the connection is still in a state to read the next request
     */
    boolean prepare(Request request, SocketChannel socket) throws IOException {
        long start = System.nanoTime();
        int found;
        int left;
        try (OpenedFile file = resolve(request, socket)) {
            if (file == null) {
                return true;
            }
            found = CacheControl.residency(file.path());
            try {
                left = CacheControl.prepare(file.path(), request.flags());
            } catch (IOException e) {
                return refuse(socket, Status.UNAVAILABLE, "cannot put " + file.path().getFileName() + " in the asked cache state: "
                        + ClientMessages.of(e, data.root()));
            }
        }
        Frames.writeFully(socket, ResponseCodec.prepared(new Prepared(found, left, System.nanoTime() - start)));
        return true;
    }

    /**
     * The file a DOWNLOAD or PREPARE names (the generated one is created on demand), opened, with the checksum of the
     * opened bytes; or null once refused.
     */
    private OpenedFile resolve(Request request, SocketChannel socket) throws IOException {
        InternalFaultProbe.at(InternalFaultProbe.Point.FILE_WORK, request.name());
        if (request.name().isEmpty() && request.size() > config.maxGenerated()) {
            refuse(socket, Status.TOO_LARGE, "generated files are limited to " + config.maxGenerated() + " bytes");
            return null;
        }
        try {
            return request.name().isEmpty() ? data.openGenerated(request.size()) : data.openExisting(request.name());
        } catch (NoSuchFileException | AccessDeniedException e) {
            // Answered by the connection as NOT_FOUND / FORBIDDEN.
            throw e;
        } catch (IOException e) {
            // Creating or hashing the file failed (a full disk, say): the request is answered, the connection lives.
            refuse(socket, FailureStatus.of(e), "cannot prepare " + (request.name().isEmpty()
                    ? DataDirectory.generatedName(request.size()) : request.name()) + ": " + ClientMessages.of(e, data.root()));
            return null;
        }
    }

    private boolean refuse(SocketChannel socket, Status status, String message) throws IOException {
        Frames.writeFully(socket, ResponseCodec.error(status, message));
        return true;
    }

    @Override
    public void close() {
        senders.close();
    }
}
