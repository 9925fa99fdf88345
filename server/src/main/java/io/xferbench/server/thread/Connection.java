package io.xferbench.server.thread;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.WindowOverlap;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.fault.FailedPastTheHead;
import io.xferbench.server.fault.InternalErrors;
import io.xferbench.server.http.ProtocolSniffer;
import io.xferbench.server.limits.BodyDeadline;
import io.xferbench.server.model.InfoAnswer;
import io.xferbench.server.model.Seams;
import io.xferbench.server.model.ServerListener;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.limits.LingeringClose;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.request.FailureAnswer;
import io.xferbench.server.request.FailureAnswers;
import io.xferbench.server.request.FileWork;
import io.xferbench.server.request.Plan;
import io.xferbench.server.request.Refused;
import io.xferbench.server.request.RequestRules;
import io.xferbench.server.request.RequestService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.util.logging.Logger;

/**
 * One client connection: reads requests one after another and answers each. A malformed request is
 * answered with an error and ends the connection (the stream can no longer be trusted); a well-formed
 * request that fails (unknown file, unavailable method) is answered and the connection goes on.
 */
public final class Connection implements Runnable {
    private static final Logger LOG = Logger.getLogger(Connection.class.getName());

    private final int id;
    private final SocketChannel socket;
    private final ServerConfig config;
    private final Measurements measurements;
    private final ConnectionRegistry registry;
    private final DownloadHandler downloads;
    private final UploadHandler uploads;
    private final DataDirectory data;
    private final BufferBudget buffers;
    private final ConnectionThreads threads;
    private final InfoAnswer info;
    private final RequestService service;
    private final FileWork files;
    private final FailureAnswers failures;
    /** What requests are decoded and served through. */
    private final Seams seams;
    /** This connection's measurement window, if one is open. */
    private Measurements.Window window;
    private String peer = "unknown";
    /** The request being served (null before one is decoded), named only in a failure's log. */
    private Request current;

    Connection(int id, SocketChannel socket, ServerListener.Parts parts, ConnectionRegistry registry,
               ConnectionThreads threads) {
        this.id = id;
        this.socket = socket;
        this.config = parts.config();
        this.measurements = parts.measurements();
        this.registry = registry;
        this.data = parts.data();
        this.buffers = parts.buffers();
        this.info = parts.info();
        this.threads = threads;
        BodyDeadline body = new BodyDeadline(registry, id, config);
        this.seams = parts.seams();
        this.service = new RequestService(new RequestRules(config.token(), config.maxGenerated(), config.maxUpload(), config.ioModel(), true,
                config.tls()), seams.senders());
        this.files = new FileWork(data, seams.files(), service);
        this.failures = new FailureAnswers(data.root());
        this.downloads = new DownloadHandler(files, config, buffers, body);
        this.uploads = new UploadHandler(data, seams.uploads(), config, buffers, body);
    }

    @Override
    public void run() {
        try {
            registry.add(id, socket);
            serve();
        } catch (ProtocolException e) {
            LOG.info(() -> "conn " + id + ": bad request: " + e.getMessage());
            answerQuietly(e.status(), e.getMessage());
            lingeringClose();
        } catch (IOException e) {
            LOG.fine(() -> "conn " + id + ": closed: " + e);
        } catch (FailedPastTheHead e) {
            // The answer's head is out: no error frame may follow it, the close is all the client can hear.
            InternalErrors.report(config.ioModel(), peer, current, e.fault(), e.getCause());
        } catch (RuntimeException | Error e) {
            // An OutOfMemoryError included: the client hears why before the close, where the socket still allows.
            InternalErrors.report(config.ioModel(), peer, current, e);
            answerQuietly(Status.SERVER_ERROR, InternalErrors.clientReason(e, data.root()));
            lingeringClose();
        } finally {
            // Closed here, after any error answer above, not by try-with-resources before it.
            downloads.close();
            uploads.close();
            if (window != null) {
                // A client gone mid-window must not leave its perf counter running.
                window.close();
            }
            closeQuietly();
            registry.remove(id);
        }
    }

    private void serve() throws IOException {
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        peer = WindowOverlap.address(socket.getRemoteAddress());
        registry.enter(id, ConnectionRegistry.State.AWAITING_REQUEST, config.idleTimeout());
        ByteBuffer first = ProtocolSniffer.firstBytes(socket, NativeRequestReader.newBuffer());
        if (first == null) {
            return;
        }
        if (ProtocolSniffer.isHttp(first)) {
            if (new HttpSession(id, socket, config, data, registry, measurements, buffers, threads, peer, service, failures, seams).serve(first)) {
                lingeringClose();
            }
            return;
        }
        NativeRequestReader requests = new NativeRequestReader(socket, first, seams.decoder());
        while (true) {
            registry.enter(id, ConnectionRegistry.State.AWAITING_REQUEST, Measurements.requestWait(config.idleTimeout(), window != null));
            if (registry.stopping()) {
                return;
            }
            current = null;
            Request request = requests.next();
            if (request == null) {
                return;
            }
            current = request;
            registry.enter(id, ConnectionRegistry.State.BUSY, config.requestBudget(request));
            if (!execute(service.decide(request), requests)) {
                return;
            }
        }
    }

    private void closeQuietly() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already gone.
        }
    }

    /** @return whether the connection may carry another request */
    private boolean execute(Plan plan, NativeRequestReader requests) throws IOException {
        try {
            return switch (plan) {
                case Plan.Refusal r -> {
                    answer(r.status(), r.message());
                    yield !r.endsConnection();
                }
                case Plan.Download d -> download(d);
                case Plan.Prepare p -> prepare(p);
                case Plan.Upload u -> upload(u, requests);
                case Plan.Files f -> {
                    Frames.writeFully(socket, files.answer(f.request(),
                            () -> info.describe(((InetSocketAddress) socket.socket().getLocalSocketAddress()).getAddress())));
                    yield true;
                }
                case Plan.MeasureBegin b -> measureBegin(b);
                case Plan.MeasureEnd e -> measureEnd();
            };
        } catch (FileSystemException | Refused e) {
            // A file operation's failure (a socket's is not one), a refusal, a busy buffer budget: answered, and the
            // connection goes on, as on the event loops.
            FailureAnswer.Answered a = failures.of(e, "conn " + id);
            answer(a.status(), a.message());
            return true;
        }
    }

    private boolean download(Plan.Download plan) throws IOException {
        measurements.started(id, peer);
        try {
            return threads.offload(() -> downloads.handle(plan, socket, peer));
        } finally {
            // Before the socket may close: a moving body's socket is looked at by the registry's reaper.
            registry.transferred(id);
            measurements.finished(id);
        }
    }

    private boolean prepare(Plan.Prepare plan) throws IOException {
        // Cache work (eviction, warming, generation) is work other windows should know of.
        measurements.started(id, peer);
        try {
            threads.offload(() -> {
                downloads.prepare(plan, socket);
                return null;
            });
            return true;
        } finally {
            measurements.finished(id);
        }
    }

    private boolean upload(Plan.Upload plan, NativeRequestReader requests) throws IOException {
        measurements.started(id, peer);
        ByteBuffer ahead = requests.ahead(plan.request().size());
        try {
            return threads.offload(() -> uploads.handle(plan, socket, ahead));
        } finally {
            registry.transferred(id);
            requests.took(ahead);
            measurements.finished(id);
        }
    }

    private boolean measureBegin(Plan.MeasureBegin plan) throws IOException {
        // A second BEGIN on the same connection restarts its own window; other connections' are untouched.
        if (window != null) {
            window.close();
            window = null;
        }
        window = measurements.begin(id, plan.countSyscalls());
        Frames.writeFully(socket, ResponseCodec.json("{}".getBytes(StandardCharsets.UTF_8)));
        return true;
    }

    private boolean measureEnd() throws IOException {
        if (window == null) {
            answer(Status.BAD_REQUEST, "MEASURE_END without MEASURE_BEGIN on this connection");
            return true;
        }
        Measurements.Window w = window;
        window = null;
        Frames.writeFully(socket, ResponseCodec.json(ProtocolJson.write(w.end())));
        return true;
    }

    private void answer(Status status, String message) throws IOException {
        Frames.writeFully(socket, ResponseCodec.error(status, message));
    }

    private void lingeringClose() {
        LingeringClose.drain(socket, registry, id);
    }

    private void answerQuietly(Status status, String message) {
        try {
            answer(status, message);
        } catch (IOException ignored) {
            // The peer is gone; the log line above is all that is left to do.
        }
    }
}
