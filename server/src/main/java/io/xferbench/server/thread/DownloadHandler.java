package io.xferbench.server.thread;

import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Trailer;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.fault.BodyCutShort;
import io.xferbench.server.fault.FailedPastTheHead;
import io.xferbench.server.fault.ServerFault;
import io.xferbench.server.limits.BodyDeadline;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.model.AnswerHead;
import io.xferbench.server.model.PerConnection;
import io.xferbench.server.request.CacheControl;
import io.xferbench.server.request.FileWork;
import io.xferbench.server.request.Plan;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Carries out DOWNLOAD and PREPARE plans of one blocking connection. Senders are kept per method and options for the
 * connection's life, so buffers and adopted Netty channels are set up once, as a real server would. A failure of the
 * file work is thrown to the connection, which answers it ({@link io.xferbench.server.request.FailureAnswers}).
 */
final class DownloadHandler implements AutoCloseable {
    private final FileWork files;
    private final ServerConfig config;
    private final PerConnection<FileSender> senders;
    private final BodyDeadline body;

    /** @param body the connection's deadline while a body moves; its caller ends it when the request is over */
    DownloadHandler(FileWork files, ServerConfig config, BufferBudget buffers, BodyDeadline body) {
        this.files = files;
        this.config = config;
        this.senders = new PerConnection<>(buffers);
        this.body = body;
    }

    /**
     * @param peer the client, as a failure's log names it
     * @return whether the connection is still in a state to read the next request
     */
    boolean handle(Plan.Download plan, SocketChannel socket, String peer) throws IOException {
        Request request = plan.request();
        var method = plan.method();
        var options = plan.options();
        FileSender sender = senders.get(method.id(), options, method.bufferBytes(options), () -> method.newSender(options));
        try (OpenedFile file = files.open(request)) {
            SourceFile source = new SourceFile(file.path(), file.channel(), file.size());
            try {
                sender.checkSupported(source, 0, file.size());
            } catch (UnsupportedTransferException e) {
                return refuse(socket, Status.UNAVAILABLE, method.id() + ": " + e.getMessage());
            }
            // Without cache flags a PREPARE has done it untimed, and the transfer does nothing but send.
            int residencyBefore = plan.inlineCache() ? CacheControl.prepare(file.path(), request.flags()) : -1;
            // A TLS body waits on the client's handshake, which waits on the head: nothing may hold the head back.
            boolean tls = method.traits().tls();
            if (!tls) {
                ResponseCork.hold(config, socket);
            }
            // The file's length, not the request's size (meaningless for a named file), sets the body's budget.
            body.moves(file.size());
            ByteBuffer head = ResponseCodec.downloadHeader(new DownloadHeader(file.size(), file.crc32c(), residencyBefore));
            if (tls) {
                Frames.writeFully(socket, head);
            } else {
                AnswerHead.write(socket, head);
            }
            long start = System.nanoTime();
            try {
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
            Frames.writeFully(socket, ResponseCodec.trailer(Trailer.ok(nanos, plan.inlineCache() ? CacheControl.residency(file.path()) : -1)));
            if (!tls) {
                ResponseCork.release(config, socket);
            }
        }
        return true;
    }

    /** PREPARE, outside any transfer's timing ({@link FileWork#prepare}). */
    void prepare(Plan.Prepare plan, SocketChannel socket) throws IOException {
        Frames.writeFully(socket, files.prepare(plan.request()));
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
