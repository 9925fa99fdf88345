package io.xferbench.server.thread;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.UploadReport;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.limits.BodyDeadline;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.model.PerConnection;
import io.xferbench.server.model.UploadPlacement;
import io.xferbench.server.model.UploadPlacements;
import io.xferbench.server.request.ClientMessages;
import io.xferbench.server.request.FailureStatus;
import io.xferbench.server.request.Plan;
import io.xferbench.server.request.Refused;
import io.xferbench.server.request.RequestService;
import io.xferbench.server.request.VerifyFailed;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.logging.Logger;

/**
 * Serves UPLOAD requests of one blocking connection: socket → temp file through the request's receiver method →
 * verified → renamed into place. The method's checks (unknown or unavailable method, a length it cannot write
 * correctly: UNAVAILABLE) are {@link RequestService}'s, before it is here; the checks every model shares, the temp file, the verification and the rename
 * are {@link UploadPlacement}'s. Receivers that see the bytes in user space checksum them as they pass; zero-copy
 * receivers cannot, and the placement re-reads the temp file instead.
 * A failure after the whole body was read is answered and the connection goes on; a failure inside the body is
 * answered, the rest of the body is drained (bounded by its declared size and the idle timeout) so the client can
 * read the answer, and the connection is closed, since where the next request starts is no longer known.
 * <p>The body's first bytes may have been read with the header ({@link NativeRequestReader}): the receiver takes them
 * first. A client that sends the body right behind the header (the load generator does) does not wait for the ready
 * frame: when the rest of the body is already in the socket's receive buffer ({@code FIONREAD}, one {@code ioctl},
 * none when the whole body was read with the header), the
 * ready frame goes out with the answer in one {@code writev} instead of a write of its own, as the event-loop models
 * do. One loopback send and one wake-up of the client fewer per upload; a client that waits for ready still gets it
 * first, since its body cannot be there yet.
 */
final class UploadHandler implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(UploadHandler.class.getName());

    private final DataDirectory data;
    private final UploadPlacements placements;
    private final ServerConfig config;
    private final PerConnection<FileReceiver> receivers;
    private final BodyDeadline body;
    private ByteBuffer checksumBuffer;
    /** The current upload's ready frame, held back to go out with the answer (the body was already here). */
    private ByteBuffer pendingReady;

    /** @param body the connection's deadline while a body moves; its caller ends it when the request is over */
    UploadHandler(DataDirectory data, UploadPlacements placements, ServerConfig config, BufferBudget buffers, BodyDeadline body) {
        this.data = data;
        this.placements = placements;
        this.config = config;
        this.receivers = new PerConnection<>(buffers);
        this.body = body;
    }

    /**
     * @param plan the upload, its checks passed ({@link RequestService})
     * @param ahead the body's first bytes, read with the request's header; the receiver takes them first
     * @return whether the connection is still in a state to read the next request
     */
    boolean handle(Plan.Upload plan, SocketChannel socket, ByteBuffer ahead) throws IOException {
        ReceiverMethod method = plan.method();
        TransferOptions options = plan.options();
        FileReceiver receiver = receivers.get(method.id(), options, method.bufferBytes(options), () -> method.newReceiver(options));
        UploadPlacement placement;
        try {
            placement = placements.open(plan.request());
        } catch (Refused e) {
            return refuse(socket, e.status, e.getMessage());
        }
        try (placement) {
            return receiveAndPlace(plan, receiver, placement, socket, ahead);
        } finally {
            pendingReady = null;
        }
    }

    /** The upload once its placement is open: the body into the temp file, verified, renamed into place, answered. */
    private boolean receiveAndPlace(Plan.Upload plan, FileReceiver receiver, UploadPlacement placement,
            SocketChannel socket, ByteBuffer ahead) throws IOException {
        Request request = plan.request();
        ReceiverMethod method = plan.method();
        UploadReport report;
        try {
            sendReadyOrHold(socket, request.size() - ahead.remaining(), request.size());
            long start = System.nanoTime();
            long crc;
            // A client that stops sending is cut after the idle timeout, not after its size's whole budget.
            body.moves(request.size());
            try {
                crc = receiver.receive(socket, ahead, placement.file(), placement.tmp(), request.size());
            } catch (IOException | RuntimeException e) {
                abandon(plan, placement, socket, e);
                return false;
            }
            // What follows (a checksum re-read, the rename) moves no byte on the socket.
            body.moved();
            long serverNanos = System.nanoTime() - start;
            try {
                report = placement.verify(crc, serverNanos, this::checksumBuffer);
            } catch (VerifyFailed e) {
                LOG.info(() -> method.id() + " upload of " + request.name() + " refused: " + e.getMessage());
                placement.close();
                return refuse(socket, Status.VERIFY_FAILED, method.id() + ": " + e.getMessage());
            }
        } catch (IOException e) {
            // After the body: the stream is in step, answer and go on.
            placement.close();
            return refuse(socket, FailureStatus.of(e), notDone(method, request, "not stored", e));
        }
        try {
            report = placement.place(report);
        } catch (IOException e) {
            placement.close();
            return refuse(socket, FailureStatus.of(e), notDone(method, request, "not put in place", e));
        }
        send(socket, ResponseCodec.uploadResult(report));
        return true;
    }

    /**
     * Sends the ready frame now, or holds it back to go out with the answer when the {@code owed} bytes of the body
     * not read ahead are here already.
     */
    private void sendReadyOrHold(SocketChannel socket, long owed, long size) throws IOException {
        ByteBuffer ready = ResponseCodec.uploadReady(size);
        if (bodyArrived(socket, owed)) {
            pendingReady = ready;
        } else {
            Frames.writeFully(socket, ready);
        }
    }

    /** The receiver failed inside the body: nothing is kept, the client is answered and the connection is done. */
    private void abandon(Plan.Upload plan, UploadPlacement placement, SocketChannel socket, Exception e)
            throws IOException {
        // The drain below has its own bound.
        body.moved();
        // Gone (and its space released) before the client hears why.
        placement.close();
        receivers.discard(plan.method().id(), plan.options());
        failedInBody(socket, plan.method(), plan.request(), e);
    }

    /** The answer's message for an upload whose body was read but that was {@code what} (not stored, ...). */
    private String notDone(ReceiverMethod method, Request request, String what, IOException e) {
        return method.id() + ": upload of " + request.name() + " " + what + ": " + ClientMessages.of(e, data.root());
    }

    /**
     * Whether the {@code owed} bytes of the body not read ahead are in the socket's receive buffer already (FIONREAD,
     * unless none are owed); false when that cannot be told.
     */
    private static boolean bodyArrived(SocketChannel socket, long owed) {
        if (owed == 0) {
            return true;
        }
        try {
            return socket.socket().getInputStream().available() >= owed;
        } catch (IOException e) {
            return false;
        }
    }

    /** Writes {@code answer}, behind the ready frame when that was held back. */
    private void send(SocketChannel socket, ByteBuffer answer) throws IOException {
        ByteBuffer ready = pendingReady;
        if (ready == null) {
            Frames.writeFully(socket, answer);
            return;
        }
        pendingReady = null;
        ByteBuffer[] both = {ready, answer};
        while (answer.hasRemaining()) {
            socket.write(both);
        }
    }

    private ByteBuffer checksumBuffer() {
        if (checksumBuffer == null) {
            checksumBuffer = ByteBuffer.allocateDirect(UploadPlacement.CHECKSUM_CHUNK);
        }
        return checksumBuffer;
    }

    /**
     * The receiver failed with part of the body possibly still unread: answer, then drain what the client may
     * still be sending so that it gets to read the answer instead of a reset, then let the connection close.
     */
    private void failedInBody(SocketChannel socket, ReceiverMethod method, Request request, Exception e) {
        Status status = FailureStatus.of(e);
        LOG.info(() -> method.id() + " upload of " + request.name() + " failed in the body: " + e);
        try {
            send(socket, ResponseCodec.error(status, method.id() + ": upload of " + request.name()
                    + " failed, nothing stored: " + ClientMessages.of(e, data.root())));
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
        send(socket, ResponseCodec.error(status, message));
        return true;
    }

    @Override
    public void close() {
        receivers.close();
    }
}
