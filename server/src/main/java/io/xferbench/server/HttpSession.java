package io.xferbench.server;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.server.limits.BodyDeadline;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.thread.ConnectionThreads;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.logging.Logger;

/**
 * HTTP/1.1 on the server's one port, for curl, wrk and any HTTP load generator: GET sends a file of the data
 * directory with a transfer method ({@code ?method=ID}, default {@link #DEFAULT_METHOD}), HEAD says whether it
 * exists and its size. The same real-path rules, token, deadlines and checksum records as the native protocol; the
 * CRC32C the server holds for the file travels in {@code X-Xferbench-Crc32c} so a client can verify the body.
 * Uploads and deletes stay on the native protocol (405 here).
 */
final class HttpSession {
    static final String DEFAULT_METHOD = "transfer-to";
    private static final Logger LOG = Logger.getLogger(HttpSession.class.getName());

    private final int id;
    private final SocketChannel socket;
    private final ServerConfig config;
    private final DataDirectory data;
    private final ConnectionRegistry registry;
    private final Measurements measurements;
    private final String peer;
    private final ConnectionThreads threads;
    private final PerConnection<FileSender> senders;

    HttpSession(int id, SocketChannel socket, ServerConfig config, DataDirectory data, ConnectionRegistry registry,
                Measurements measurements, BufferBudget buffers, ConnectionThreads threads, String peer) {
        this.id = id;
        this.socket = socket;
        this.config = config;
        this.data = data;
        this.registry = registry;
        this.measurements = measurements;
        this.peer = peer;
        this.threads = threads;
        this.senders = new PerConnection<>(buffers);
    }

    /**
     * Serves requests until the client closes, asks to close, or sends something that ends the connection.
     *
     * @return true when it ended on a bad request or an internal error: the answer is written, and the caller should close lingering so
     *         that unread input does not turn the close into a reset that destroys the answer
     */
    boolean serve(ByteBuffer sniffed) throws IOException {
        HttpRequestReader reader = new HttpRequestReader(socket, sniffed);
        try {
            while (true) {
                HttpRequest request;
                try {
                    request = reader.next();
                } catch (HttpRequestReader.BadRequest e) {
                    LOG.info(() -> "conn " + id + ": bad HTTP request: " + e.getMessage());
                    respond(e.status, e.getMessage(), false, e.headMethod);
                    return true;
                } catch (RuntimeException | Error e) {
                    // The server's own failure reading a head: a 500 in HTTP, not the caller's native frame.
                    InternalErrors.report(config.ioModel(), peer, null, e);
                    respond(500, InternalErrors.clientReason(e, data.root()), false, false);
                    return true;
                }
                if (request == null || registry.stopping()) {
                    return false;
                }
                registry.enter(id, ConnectionRegistry.State.BUSY, config.idleTimeout());
                try {
                    if (!handle(request) || !request.keepAlive()) {
                        return false;
                    }
                } catch (FailedPastTheHead e) {
                    // A short body and a close are all HTTP has past the head.
                    InternalErrors.report(config.ioModel(), peer, request, e.fault(), e.getCause());
                    return false;
                } catch (RuntimeException | Error e) {
                    // Nothing of the answer was sent: a 500 in HTTP (the connection's caller used to write a native frame).
                    InternalErrors.report(config.ioModel(), peer, request, e);
                    respond(500, InternalErrors.clientReason(e, data.root()), false, request.method().equals("HEAD"));
                    return true;
                }
                registry.enter(id, ConnectionRegistry.State.AWAITING_REQUEST, config.idleTimeout());
            }
        } finally {
            senders.close();
        }
    }

    /** @return whether the connection can go on */
    private boolean handle(HttpRequest request) throws IOException {
        boolean head = request.method().equals("HEAD");
        ByteBuffer refusal = HttpResponses.refusal(request, config);
        if (refusal != null) {
            Frames.writeFully(socket, refusal);
            return request.keepAlive();
        }
        SenderMethod method = DownloadMethods.byId(HttpResponses.methodId(request)).orElseThrow();
        String loopOnly = LoopMethodRefusal.onThreads(method, config.ioModel());
        if (loopOnly != null) {
            return respond(503, loopOnly, request.keepAlive(), head);
        }
        Availability availability = method.availability();
        if (!availability.isAvailable()) {
            return respond(503, method.id() + ": " + availability.unavailableReason(), request.keepAlive(), head);
        }
        // The open is file work too: on virtual+pool:N it runs on the pool with the transfer, in the same hand-off.
        return threads.offload(() -> openAndAnswer(request, method, head));
    }

    /** Opens the requested file and answers: its head, or head and body; 404/403/5xx when it cannot be opened. */
    private boolean openAndAnswer(HttpRequest request, SenderMethod method, boolean head) throws IOException {
        OpenedFile file;
        try {
            InternalFaultProbe.at(InternalFaultProbe.Point.FILE_WORK, request.path().substring(1));
            file = data.openExisting(request.path().substring(1));
        } catch (NoSuchFileException e) {
            return respond(404, request.path() + ": no such file", request.keepAlive(), head);
        } catch (AccessDeniedException e) {
            return respond(403, request.path() + ": " + ClientMessages.reason(e), request.keepAlive(), head);
        } catch (IOException e) {
            Frames.writeFully(socket, HttpResponses.failure(FailureStatus.of(e), request.path() + ": " + ClientMessages.of(e, data.root()),
                    request.keepAlive(), head));
            return request.keepAlive();
        }
        ByteBuffer headers = HttpResponses.ok(file.size(), file.crc32c(), method.id(), request.keepAlive());
        try (file) {
            if (head) {
                Frames.writeFully(socket, headers.duplicate());
                return true;
            }
            return send(request, method, file, headers);
        }
    }

    private boolean send(HttpRequest request, SenderMethod method, OpenedFile file, ByteBuffer headers) throws IOException {
        TransferOptions options = new TransferOptions(0, false);
        FileSender sender;
        try {
            sender = senders.get(method.id(), options, method.bufferBytes(options), () -> method.newSender(options));
        } catch (PerConnection.BudgetExceeded e) {
            return respond(503, e.getMessage(), request.keepAlive(), false);
        }
        measurements.started(id, peer);
        try {
            SourceFile source = new SourceFile(file.path(), file.channel(), file.size());
            try {
                sender.checkSupported(source, 0, file.size());
            } catch (UnsupportedTransferException e) {
                return respond(503, method.id() + ": " + e.getMessage(), request.keepAlive(), false);
            }
            new BodyDeadline(registry, id, config).moves(file.size());
            InternalFaultProbe.at(InternalFaultProbe.Point.ANSWER, request.path().substring(1));
            ResponseCork.hold(config, socket);
            AnswerHead.write(socket, headers.duplicate());
            try {
                InternalFaultProbe.at(InternalFaultProbe.Point.BODY, request.path().substring(1));
                sender.send(source, 0, file.size(), socket);
            } catch (IOException | RuntimeException | Error e) {
                // Past the headers a failure cannot be told: a short body and a close are what HTTP has.
                senders.discard(method.id(), options);
                Throwable fault = ServerFault.of(e);
                if (fault != null) {
                    throw new FailedPastTheHead(fault, e);
                }
                BodyCutShort.log(config.ioModel(), peer, request, method.id(), e);
                return false;
            }
            ResponseCork.release(config, socket);
            return true;
        } finally {
            registry.transferred(id);
            measurements.finished(id);
        }
    }

    /** An error answer with a short text body; the connection goes on when both sides want it to. */
    private boolean respond(int status, String message, boolean keepAlive, boolean head) throws IOException {
        Frames.writeFully(socket, HttpResponses.error(status, message, keepAlive, head, ""));
        return keepAlive;
    }
}
