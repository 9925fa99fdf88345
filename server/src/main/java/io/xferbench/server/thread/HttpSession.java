package io.xferbench.server.thread;

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
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.fault.BodyCutShort;
import io.xferbench.server.fault.FailedPastTheHead;
import io.xferbench.server.fault.InternalErrors;
import io.xferbench.server.fault.ServerFault;
import io.xferbench.server.http.HttpRequestReader;
import io.xferbench.server.http.HttpResponses;
import io.xferbench.server.limits.BodyDeadline;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.model.AnswerHead;
import io.xferbench.server.model.PerConnection;
import io.xferbench.server.model.Seams;
import io.xferbench.server.request.FailureAnswer;
import io.xferbench.server.request.FailureAnswers;
import io.xferbench.server.request.HttpPlan;
import io.xferbench.server.request.HttpRequest;
import io.xferbench.server.request.RequestService;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.logging.Logger;

/**
 * HTTP/1.1 on the server's one port, for curl, wrk and any HTTP load generator: GET sends a file of the data
 * directory with a transfer method ({@code ?method=ID}, default {@link RequestService#HTTP_DEFAULT_ON_THREADS}), HEAD says whether it
 * exists and its size. The same real-path rules, token, deadlines and checksum records as the native protocol; the
 * CRC32C the server holds for the file travels in {@code X-Xferbench-Crc32c} so a client can verify the body.
 * Uploads and deletes stay on the native protocol (405 here).
 */
final class HttpSession {
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
    private final RequestService service;
    private final FailureAnswers failures;
    private final Seams seams;

    HttpSession(int id, SocketChannel socket, ServerConfig config, DataDirectory data, ConnectionRegistry registry,
                Measurements measurements, BufferBudget buffers, ConnectionThreads threads, String peer,
                RequestService service, FailureAnswers failures, Seams seams) {
        this.service = service;
        this.failures = failures;
        this.seams = seams;
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
        HttpRequestReader reader = new HttpRequestReader(socket, sniffed, seams.decoder());
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
        return switch (service.decide(request)) {
            case HttpPlan.Refusal r -> {
                Frames.writeFully(socket, HttpResponses.refusal(r, request.keepAlive(), head));
                yield request.keepAlive();
            }
            // The open is file work too: on virtual+pool:N it runs on the pool with the transfer, in the same hand-off.
            case HttpPlan.Get get -> threads.offload(() -> openAndAnswer(get));
        };
    }

    /** Opens the requested file and answers: its head, or head and body; 404/403/5xx when it cannot be opened. */
    private boolean openAndAnswer(HttpPlan.Get get) throws IOException {
        HttpRequest request = get.request();
        OpenedFile file;
        try {
            file = seams.files().openExisting(get.name());
        } catch (IOException e) {
            FailureAnswer.Answered a = failures.ofHttp(e, request.path());
            Frames.writeFully(socket, HttpResponses.failure(a.status(), a.message(), request.keepAlive(), get.head()));
            return request.keepAlive();
        }
        ByteBuffer headers = HttpResponses.ok(file.size(), file.crc32c(), get.method().id(), request.keepAlive());
        try (file) {
            if (get.head()) {
                Frames.writeFully(socket, headers.duplicate());
                return true;
            }
            return send(request, get.method(), file, headers);
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
            ResponseCork.hold(config, socket);
            AnswerHead.write(socket, headers.duplicate());
            try {
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
