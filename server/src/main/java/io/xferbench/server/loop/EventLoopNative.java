package io.xferbench.server.loop;

import io.netty.buffer.ByteBuf;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestPrefix;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Trailer;
import io.xferbench.core.protocol.Wire;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.protocol.Op;
import io.xferbench.server.http.RequestDecoder;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.model.Seams;
import io.xferbench.server.request.CacheControl;
import io.xferbench.server.request.FailureAnswer;
import io.xferbench.server.request.FailureAnswers;
import io.xferbench.server.request.FileWork;
import io.xferbench.server.request.Plan;
import io.xferbench.server.request.Refused;
import io.xferbench.server.request.RequestService;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;

/**
 * The native protocol's side of an event-loop connection ({@link EventLoopConnection}, which sniffed it from the first
 * bytes): request frames decoded from the connection's buffer, and every operation (INFO, STAT, DELETE, DOWNLOAD,
 * UPLOAD, PREPARE, MEASURE_BEGIN/END; PROXY refused) answered with the threaded models' checks and answers. Runs on the
 * connection's loop; the connection keeps the states, deadlines and where file work runs.
 */
final class EventLoopNative {
    private static final Logger LOG = Logger.getLogger(EventLoopNative.class.getName());

    private final EventLoopExchange conn;
    /** The connection's UPLOADs. */
    private final EventLoopUploads uploads;
    private Measurements.Window window;

    private final RequestService service;
    private final FileWork files;
    private final FailureAnswers failures;
    private final RequestDecoder decoder;

    EventLoopNative(EventLoopExchange conn, RequestService service, FileWork files, FailureAnswers failures, Seams seams) {
        this.conn = conn;
        this.service = service;
        this.files = files;
        this.failures = failures;
        this.decoder = seams.decoder();
        this.uploads = new EventLoopUploads(conn, seams.uploads(), this::failed);
    }

    /** Serves the next request frame, if a whole one has arrived. */
    void decodeNext() {
        ByteBuf pending = conn.pending();
        if (pending.readableBytes() < Wire.REQUEST_PREFIX_BYTES) {
            return;
        }
        int length;
        try {
            length = RequestPrefix.bodyLength(pending.getInt(pending.readerIndex()), pending.getUnsignedShort(pending.readerIndex() + 4));
        } catch (ProtocolException e) {
            badRequest(e);
            return;
        }
        if (pending.readableBytes() < Wire.REQUEST_PREFIX_BYTES + length) {
            return;
        }
        ByteBuffer body = ByteBuffer.allocate(length);
        pending.skipBytes(Wire.REQUEST_PREFIX_BYTES).readBytes(body);
        pending.discardSomeReadBytes();
        Request request;
        try {
            request = decoder.decodeNative(body.flip());
        } catch (ProtocolException e) {
            badRequest(e);
            return;
        }
        serve(request);
    }

    private void serve(Request request) {
        conn.request().serving(request, false);
        conn.begin(conn.setting().config().requestBudget(request));
        switch (service.decide(request)) {
            case Plan.Refusal r when r.endsConnection() -> conn.endWith(ResponseCodec.error(r.status(), r.message()));
            case Plan.Refusal r -> answer(r.status(), r.message());
            case Plan.Download d -> download(d);
            case Plan.Upload u -> uploads.start(u);
            case Plan.Prepare p -> prepare(p.request());
            case Plan.Files f when request.op() == Op.STAT -> conn.fileWork().statFile(request.name(), () -> files.data().stat(request.name()),
                    stat -> conn.answers().answer(ResponseCodec.stat(stat)),
                    this::failed);
            case Plan.Files f -> {
                InetAddress local = ((InetSocketAddress) conn.ctx().channel().localAddress()).getAddress();
                onFiles(() -> files.answer(request, () -> conn.setting().info().describe(local)));
            }
            case Plan.MeasureBegin b -> measureBegin(b);
            case Plan.MeasureEnd e -> measureEnd();
        }
    }

    /** Runs {@code work} on the file pool and writes the frame it returns (or the answer to its failure). */
    private void onFiles(FileTask<ByteBuffer> work) {
        conn.fileWork().offload(work, conn.answers()::answer, this::failed);
    }


    // ---- DOWNLOAD and PREPARE

    private void download(Plan.Download plan) {
        Request request = plan.request();
        SenderMethod method = plan.method();
        TransferOptions options = plan.options();
        conn.request().transferStarts();
        // Cache flags on the DOWNLOAD itself are prepared inline, as DownloadHandler does: on the pool, before the header.
        boolean inline = plan.inlineCache();
        if (!inline) {
            boolean generated = request.name().isEmpty();
            try {
                files.refuseTooLarge(request);
            } catch (Refused e) {
                failed(e);
                return;
            }
            conn.fileWork().openForDownload(generated ? DataDirectory.generatedName(request.size()) : request.name(),
                    generated ? request.size() : -1, () -> files.openIfRecorded(request), () -> files.open(request),
                    file -> send(new Opened(file, -1), false, method, options), this::failed);
            return;
        }
        conn.fileWork().offload(() -> {
            OpenedFile file = files.open(request);
            try {
                return new Opened(file, inline ? CacheControl.prepare(file.path(), request.flags()) : -1);
            } catch (IOException | RuntimeException e) {
                file.close();
                throw e;
            }
        }, opened -> send(opened, inline, method, options), this::failed);
    }

    private record Opened(OpenedFile file, int residencyBefore) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /**
     * Header, body by the method asked ({@link EventLoopBody}), trailer; a method that cannot send it here is refused
     * before the header, and a failure mid-body can only close the connection.
     */
    private void send(Opened opened, boolean inline, SenderMethod method, TransferOptions options) {
        OpenedFile file = opened.file();
        if (!conn.ctx().channel().isActive()) {
            Quietly.close(file);
            return;
        }
        ByteBuf head;
        try {
            // Asked before anything changes for the body: a refusal, or a failure of its own, is answered as any other.
            String unsupported = conn.body().unsupported(method, file.size());
            if (unsupported != null) {
                Quietly.close(file);
                answer(Status.UNAVAILABLE, unsupported);
                return;
            }
            // The file's length, not the request's size (meaningless for a named file), sets the body's budget.
            conn.bodyMoves(file.size());
            conn.answers().cork(true);
            head = EventLoopAnswerWriter.frame(ResponseCodec.downloadHeader(new DownloadHeader(file.size(), file.crc32c(),
                    opened.residencyBefore())));
        } catch (RuntimeException | Error e) {
            // Not handed to a write: the file is ours to close before the failure is answered.
            Quietly.close(file);
            throw e;
        }
        String sentAs = conn.body().sentAs(method, file.size());
        conn.body().send(method, options, head, file, new EventLoopBody.Outcome() {
            @Override
            public void sent(long nanos) {
                conn.bodyMoved();
                if (inline) {
                    conn.fileWork().offload(() -> CacheControl.residency(file.path()), residency -> trailer(nanos, residency), EventLoopNative.this::failed);
                } else {
                    trailer(nanos, -1);
                }
            }

            @Override
            public void refused(Status status, String message) {
                conn.bodyMoved();
                conn.answers().cork(false);
                answer(status, message);
            }

            @Override
            public void internal(Throwable cause) {
                conn.bodyMoved();
                conn.answers().cork(false);
                conn.internalError(cause);
            }

            @Override
            public void failed(Throwable cause) {
                conn.bodyMoved();
                conn.bodyFailed(cause, sentAs);
            }
        });
    }

    private void trailer(long nanos, int residencyAfter) {
        conn.ctx().writeAndFlush(EventLoopAnswerWriter.frame(ResponseCodec.trailer(Trailer.ok(nanos, residencyAfter)))).addListener(f -> {
            if (f.isSuccess()) {
                conn.answers().cork(false);
            }
            conn.written(f.isSuccess());
        });
    }

    /** PREPARE: the file a DOWNLOAD would send, put into the cache state the flags ask for, as DownloadHandler does. */
    private void prepare(Request request) {
        conn.request().transferStarts();
        onFiles(() -> files.prepare(request));
    }

    // ---- MEASURE_BEGIN / MEASURE_END

    private void measureBegin(Plan.MeasureBegin plan) {
        // A second BEGIN on the same connection restarts its own window; other connections' are untouched.
        Measurements.Window old = window;
        window = null;
        conn.fileWork().offload(() -> {
            if (old != null) {
                old.close();
            }
            return conn.setting().measurements().begin(conn.setting().id(), plan.countSyscalls());
        }, begun -> {
            if (!conn.ctx().channel().isActive()) {
                conn.fileWork().closeOnPool(begun);
                return;
            }
            window = begun;
            conn.answers().answer(ResponseCodec.json("{}".getBytes(StandardCharsets.UTF_8)));
        }, this::failed);
    }

    /** Whether this connection holds an open measurement window (then it waits for END past the idle timeout). */
    boolean holdsWindow() {
        return window != null;
    }

    private void measureEnd() {
        if (window == null) {
            answer(Status.BAD_REQUEST, "MEASURE_END without MEASURE_BEGIN on this connection");
            return;
        }
        Measurements.Window w = window;
        window = null;
        onFiles(() -> ResponseCodec.json(ProtocolJson.write(w.end())));
    }


    /** The answer to a failed request's file work, as on the threaded models ({@link FailureAnswers}). */
    private void failed(Throwable e) {
        switch (failures.of(e, conn.setting().model() + " conn")) {
            case FailureAnswer.Answered a -> answer(a.status(), a.message());
            case FailureAnswer.Internal i -> conn.internalError(i.cause());
        }
    }

    /** Answers an error after which the connection goes on. */
    private void answer(Status status, String message) {
        conn.answers().answer(ResponseCodec.error(status, message));
    }


    private void badRequest(ProtocolException e) {
        LOG.info(() -> conn.setting().model() + " conn " + conn.ctx().channel().remoteAddress() + ": bad request: " + e.getMessage());
        conn.endWith(ResponseCodec.error(e.status(), e.getMessage()));
    }

    /** An upload's body is arriving: what is received goes to {@link #feedBody}, not to the decoder. */
    boolean receivingBody() {
        return uploads.receivingBody();
    }

    /** Hands what arrived of an upload's body on. */
    void feedBody() {
        uploads.feedBody();
    }

    /** The client left (a reset, a broken pipe): an upload inside its body is logged as the thread models log it. */
    void peerLeft(Object why) {
        uploads.peerLeft(why);
    }

    /** The connection closed: an upload's temp file and an open measurement window go. */
    void closed() {
        uploads.closed();
        if (window != null) {
            // A client gone mid-window must not leave its perf counter running.
            conn.fileWork().closeOnPool(window);
            window = null;
        }
    }
}
