package io.xferbench.server;

import io.xferbench.server.request.Refused;
import io.xferbench.server.request.FailureStatus;
import io.xferbench.server.request.ClientMessages;
import io.netty.buffer.ByteBuf;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.server.request.CacheControl;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.RequestPrefix;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Trailer;
import io.xferbench.core.protocol.UploadReport;
import io.xferbench.core.protocol.Wire;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.server.measure.Measurements;
import io.xferbench.core.protocol.Op;
import io.xferbench.server.request.FailureAnswer;
import io.xferbench.server.request.FailureAnswers;
import io.xferbench.server.request.FileWork;
import io.xferbench.server.request.Plan;
import io.xferbench.server.request.RequestService;
import io.xferbench.server.request.VerifyFailed;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * The native protocol's side of an event-loop connection ({@link EventLoopConnection}, which sniffed it from the first
 * bytes): request frames decoded from the connection's buffer, and every operation (INFO, STAT, DELETE, DOWNLOAD,
 * UPLOAD, PREPARE, MEASURE_BEGIN/END; PROXY refused) answered with the threaded models' checks and answers. Runs on the
 * connection's loop; the connection keeps the states, deadlines and where file work runs.
 */
final class EventLoopNative {
    private static final Logger LOG = Logger.getLogger(EventLoopNative.class.getName());

    private final EventLoopConnection conn;
    /** The upload whose body is arriving, if any. */
    private EventLoopUpload upload;
    private Measurements.Window window;

    private final RequestService service;
    private final FileWork files;
    private final FailureAnswers failures;

    EventLoopNative(EventLoopConnection conn, RequestService service, FileWork files, FailureAnswers failures) {
        this.conn = conn;
        this.service = service;
        this.files = files;
        this.failures = failures;
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
            InternalFaultProbe.at(InternalFaultProbe.Point.PARSE, "");
            request = RequestCodec.decodeBody(body.flip());
        } catch (ProtocolException e) {
            badRequest(e);
            return;
        }
        serve(request);
    }

    private void serve(Request request) {
        conn.serving(request, false);
        conn.begin(conn.config().requestBudget(request));
        switch (service.decide(request)) {
            case Plan.Refusal r when r.endsConnection() -> conn.endWith(ResponseCodec.error(r.status(), r.message()));
            case Plan.Refusal r -> answer(r.status(), r.message());
            case Plan.Download d -> download(d);
            case Plan.Upload u -> upload(u.request());
            case Plan.Prepare p -> prepare(p.request());
            case Plan.Files f when request.op() == Op.STAT -> conn.statFile(request.name(), () -> files.data().stat(request.name()),
                    stat -> conn.ctx().writeAndFlush(EventLoopConnection.frame(ResponseCodec.stat(stat))).addListener(f2 -> conn.written(f2.isSuccess())),
                    this::failed);
            case Plan.Files f -> {
                InetAddress local = ((InetSocketAddress) conn.ctx().channel().localAddress()).getAddress();
                onFiles(() -> files.answer(request, () -> ServerInfo.describe(conn.config(), local)));
            }
            case Plan.MeasureBegin b -> measureBegin(b);
            case Plan.MeasureEnd e -> measureEnd();
        }
    }

    /** Runs {@code work} on the file pool and writes the frame it returns (or the answer to its failure). */
    private void onFiles(EventLoopConnection.FileWork<ByteBuffer> work) {
        conn.offload(work, frame -> conn.ctx().writeAndFlush(EventLoopConnection.frame(frame)).addListener(f -> conn.written(f.isSuccess())), this::failed);
    }


    // ---- DOWNLOAD and PREPARE

    /** The file a DOWNLOAD or PREPARE names (the generated one is created on demand), on the pool. */
    private OpenedFile open(Request request) throws IOException {
        InternalFaultProbe.at(InternalFaultProbe.Point.FILE_WORK, request.name());
        return files.open(request);
    }

    /** The file a DOWNLOAD names, if it is there with its checksum record; null if it must be hashed or generated. */
    private OpenedFile openIfRecorded(Request request) throws IOException {
        InternalFaultProbe.at(InternalFaultProbe.Point.FILE_WORK, request.name());
        return files.openIfRecorded(request);
    }

    private void download(Plan.Download plan) {
        Request request = plan.request();
        SenderMethod method = plan.method();
        TransferOptions options = plan.options();
        conn.transferStarts();
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
            conn.openForDownload(generated ? DataDirectory.generatedName(request.size()) : request.name(),
                    generated ? request.size() : -1, () -> openIfRecorded(request), () -> open(request),
                    file -> send(new Opened(file, -1), false, method, options), this::failed);
            return;
        }
        conn.offload(() -> {
            OpenedFile file = open(request);
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
            EventLoopConnection.closeQuietly(file);
            return;
        }
        ByteBuf head;
        try {
            InternalFaultProbe.at(InternalFaultProbe.Point.ANSWER, file.path().getFileName().toString());
            // The file's length, not the request's size (meaningless for a named file), sets the body's budget.
            conn.bodyMoves(file.size());
            conn.cork(true);
            head = EventLoopConnection.frame(ResponseCodec.downloadHeader(new DownloadHeader(file.size(), file.crc32c(),
                    opened.residencyBefore())));
        } catch (RuntimeException | Error e) {
            // Not handed to a write: the file is ours to close before the failure is answered.
            EventLoopConnection.closeQuietly(file);
            throw e;
        }
        String sentAs = conn.body().sentAs(method, file.size());
        conn.body().send(method, options, head, file, new EventLoopBody.Outcome() {
            @Override
            public void sent(long nanos) {
                conn.bodyMoved();
                if (inline) {
                    conn.offload(() -> CacheControl.residency(file.path()), residency -> trailer(nanos, residency), EventLoopNative.this::failed);
                } else {
                    trailer(nanos, -1);
                }
            }

            @Override
            public void refused(Status status, String message) {
                conn.bodyMoved();
                conn.cork(false);
                answer(status, message);
            }

            @Override
            public void failed(Throwable cause) {
                conn.bodyMoved();
                conn.bodyFailed(cause, sentAs);
            }
        });
    }

    private void trailer(long nanos, int residencyAfter) {
        conn.ctx().writeAndFlush(EventLoopConnection.frame(ResponseCodec.trailer(Trailer.ok(nanos, residencyAfter)))).addListener(f -> {
            if (f.isSuccess()) {
                conn.cork(false);
            }
            conn.written(f.isSuccess());
        });
    }

    /** PREPARE: the file a DOWNLOAD would send, put into the cache state the flags ask for, as DownloadHandler does. */
    private void prepare(Request request) {
        conn.transferStarts();
        onFiles(() -> {
            InternalFaultProbe.at(InternalFaultProbe.Point.FILE_WORK, request.name());
            return files.prepare(request);
        });
    }

    // ---- UPLOAD

    /**
     * The checks, then the temp file (on the pool), the ready frame, and the body as it arrives. A body that is already
     * here whole (a client that sends it right behind the header) is opened, written, verified and placed by one pool
     * task, and ready and result leave together: one hand-off to the pool and back instead of three (open, the chunk,
     * the verification and rename), and one send instead of two.
     */
    private void upload(Request request) {
        conn.transferStarts();
        ByteBuf pending = conn.pending();
        if (pending.readableBytes() >= request.size()) {
            // Copied, not consumed: a refused open leaves the stream as the chunked way does. The copy is bounded by
            // what may wait in the buffer (reading pauses past EventLoopConnection.MAX_PENDING).
            ByteBuffer body = ByteBuffer.allocate((int) request.size());
            pending.getBytes(pending.readerIndex(), body);
            body.flip();
            conn.offload(() -> wholeUpload(request, body), finished -> wholeUploadDone(request, finished), this::failed);
            return;
        }
        conn.offload(() -> UploadPlacement.open(conn.data(), request), placement -> {
            if (!conn.ctx().channel().isActive()) {
                conn.closeOnPool(placement);
                return;
            }
            upload = new EventLoopUpload(request, placement);
            conn.watchForReset();
            // A client that stops sending is closed after the idle timeout, not after its size's whole budget.
            conn.bodyMoves(request.size());
            conn.ctx().writeAndFlush(EventLoopConnection.frame(ResponseCodec.uploadReady(request.size())));
            feedBody();
        }, this::failed);
    }

    /**
     * How an upload ended on the pool: the ready frame if the temp file was opened, the answer, and whether that
     * answer ends the connection (a failure inside the body, as {@link UploadHandler} ends it).
     */
    private record Finished(ByteBuffer ready, ByteBuffer answer, boolean endsConnection) {
    }

    /** On the pool: a body that arrived whole, opened, written, verified and placed; a refused open is thrown. */
    private Finished wholeUpload(Request request, ByteBuffer body) throws IOException {
        UploadPlacement placement = UploadPlacement.open(conn.data(), request);
        ByteBuffer ready = ResponseCodec.uploadReady(request.size());
        try (placement) {
            long start = System.nanoTime();
            CRC32C crc = new CRC32C();
            try {
                crc.update(body.duplicate());
                while (body.hasRemaining()) {
                    placement.file().write(body);
                }
            } catch (IOException | RuntimeException e) {
                placement.close();
                LOG.info(() -> conn.model() + " upload of " + request.name() + " failed in the body: " + e);
                return new Finished(ready, failedInBody(request, e), true);
            }
            return new Finished(ready, finishOnPool(placement, crc.getValue(), System.nanoTime() - start, request.name()), false);
        }
    }

    /** On the loop: the whole body is consumed, ready and answer go out in one flush. */
    private void wholeUploadDone(Request request, Finished finished) {
        if (!conn.ctx().channel().isActive()) {
            return;
        }
        conn.pending().skipBytes((int) request.size());
        conn.pending().discardSomeReadBytes();
        finishAnswer(finished);
    }

    /** Writes an ended upload's frames (the ready frame only if it was not sent before). */
    private void finishAnswer(Finished finished) {
        if (finished.endsConnection()) {
            if (finished.ready() != null) {
                conn.ctx().write(EventLoopConnection.frame(finished.ready()));
            }
            conn.endWith(finished.answer());
            return;
        }
        if (finished.ready() != null) {
            conn.ctx().write(EventLoopConnection.frame(finished.ready()));
        }
        conn.ctx().writeAndFlush(EventLoopConnection.frame(finished.answer())).addListener(f -> conn.written(f.isSuccess()));
    }

    private ByteBuffer failedInBody(Request request, Throwable e) {
        return ResponseCodec.error(FailureStatus.of(e), "upload of " + request.name() + " failed, nothing stored: " + clientMessage(e));
    }

    /**
     * Hands what arrived of the body to the pool, one chunk at a time; the last one is also verified and placed by the
     * same pool task, which saves a hand-off back to the loop and out again.
     */
    void feedBody() {
        ByteBuf pending = conn.pending();
        EventLoopUpload u = upload;
        if (u.writing) {
            return;
        }
        if (u.remaining() == 0) {
            upload = null;
            completeUpload(u);
            return;
        }
        int n = (int) Math.min(pending.readableBytes(), u.remaining());
        if (n == 0) {
            if (conn.inputEnded()) {
                // The client shut its side down inside the body: it cannot be whole; closing removes the temp file.
                conn.ctx().close();
            }
            return;
        }
        ByteBuffer chunk = ByteBuffer.allocate(n);
        pending.readBytes(chunk);
        pending.discardSomeReadBytes();
        chunk.flip();
        boolean last = n == u.remaining();
        if (last) {
            conn.bodyMoved();
        }
        u.handOver(n);
        conn.paceReading();
        conn.offload(() -> {
            try {
                InternalFaultProbe.at(InternalFaultProbe.Point.UPLOAD_CHUNK, u.request.name());
                u.write(chunk);
            } catch (IOException | RuntimeException e) {
                // Removed here, before the loop answers (ENOSPC, say): handed back to the pool, the removal raced
                // the answer and a client could see the temp file after NO_SPACE.
                u.placement.close();
                throw e;
            }
            if (!last) {
                return null;
            }
            long serverNanos = System.nanoTime() - u.startNanos;
            try (UploadPlacement placement = u.placement) {
                return new Finished(null, finishOnPool(placement, u.crc32c(), serverNanos, u.request.name()), false);
            }
        }, finished -> {
            u.writing = false;
            if (upload != u) {
                // The connection closed meanwhile (idempotent when the last chunk already placed or removed it).
                conn.closeOnPool(u.placement);
                return;
            }
            if (finished == null) {
                feedBody();
                return;
            }
            upload = null;
            finishAnswer(finished);
        }, e -> {
            u.writing = false;
            conn.closeOnPool(u.placement);
            if (upload != u) {
                return;
            }
            upload = null;
            if (!(e instanceof IOException)) {
                // The server's own failure (a RuntimeException, an Error): logged with the request named, SERVER_ERROR.
                conn.internalError(e);
                return;
            }
            // Inside the body: answered, the rest drained (bounded), then closed, as UploadHandler does.
            LOG.info(() -> conn.model() + " upload of " + u.request.name() + " failed in the body: " + e);
            conn.endWith(failedInBody(u.request, e));
        });
    }

    /** An empty body: verified, renamed into place, answered (on the pool). */
    private void completeUpload(EventLoopUpload u) {
        long serverNanos = System.nanoTime() - u.startNanos;
        onFiles(() -> {
            try (UploadPlacement placement = u.placement) {
                return finishOnPool(placement, u.crc32c(), serverNanos, u.request.name());
            }
        });
    }

    /**
     * On the pool, the whole body written: verified and renamed into place; the answer, an error one when the upload
     * is refused (the stream stays in step: the connection goes on).
     */
    private ByteBuffer finishOnPool(UploadPlacement placement, long crc32c, long serverNanos, String name) {
        InternalFaultProbe.at(InternalFaultProbe.Point.UPLOAD_END, name);
        UploadReport report;
        try {
            report = placement.verify(crc32c, serverNanos, () -> {
                throw new IllegalStateException("the event loop checksums every body as it passes");
            });
        } catch (VerifyFailed e) {
            LOG.info(() -> conn.model() + " upload of " + name + " refused: " + e.getMessage());
            return ResponseCodec.error(Status.VERIFY_FAILED, conn.model() + ": " + e.getMessage());
        } catch (IOException e) {
            return ResponseCodec.error(FailureStatus.of(e), conn.model() + ": upload of " + name + " not stored: " + clientMessage(e));
        }
        try {
            return ResponseCodec.uploadResult(placement.place(report));
        } catch (IOException e) {
            return ResponseCodec.error(FailureStatus.of(e), conn.model() + ": upload of " + name + " not put in place: " + clientMessage(e));
        }
    }

    // ---- MEASURE_BEGIN / MEASURE_END

    private void measureBegin(Plan.MeasureBegin plan) {
        // A second BEGIN on the same connection restarts its own window; other connections' are untouched.
        Measurements.Window old = window;
        window = null;
        conn.offload(() -> {
            if (old != null) {
                old.close();
            }
            return conn.measurements().begin(conn.id(), plan.countSyscalls());
        }, begun -> {
            if (!conn.ctx().channel().isActive()) {
                conn.closeOnPool(begun);
                return;
            }
            window = begun;
            conn.ctx().writeAndFlush(EventLoopConnection.frame(ResponseCodec.json("{}".getBytes(StandardCharsets.UTF_8)))).addListener(f -> conn.written(f.isSuccess()));
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
        switch (failures.of(e, conn.model() + " conn")) {
            case FailureAnswer.Answered a -> answer(a.status(), a.message());
            case FailureAnswer.Internal i -> conn.internalError(i.cause());
        }
    }

    private String clientMessage(Throwable e) {
        return ClientMessages.of(e, conn.data().root());
    }

    /** Answers an error after which the connection goes on. */
    private void answer(Status status, String message) {
        conn.ctx().writeAndFlush(EventLoopConnection.frame(ResponseCodec.error(status, message))).addListener(f -> conn.written(f.isSuccess()));
    }


    private void badRequest(ProtocolException e) {
        LOG.info(() -> conn.model() + " conn " + conn.ctx().channel().remoteAddress() + ": bad request: " + e.getMessage());
        conn.endWith(ResponseCodec.error(e.status(), e.getMessage()));
    }

    /** An upload's body is arriving: what is received goes to {@link #feedBody}, not to the decoder. */
    boolean receivingBody() {
        return upload != null;
    }

    /** The client left (a reset, a broken pipe): an upload inside its body is logged as the thread models log it. */
    void peerLeft(Object why) {
        EventLoopUpload u = upload;
        if (u != null) {
            LOG.info(() -> conn.model() + " upload of " + u.request.name() + " failed in the body: " + why);
        }
    }

    /** The connection closed: an upload's temp file and an open measurement window go. */
    void closed() {
        // The temp file goes now, or, with a chunk on the pool, when that chunk returns and finds the upload abandoned.
        if (upload != null && !upload.writing) {
            conn.closeOnPool(upload.placement);
        }
        upload = null;
        if (window != null) {
            // A client gone mid-window must not leave its perf counter running.
            conn.closeOnPool(window);
            window = null;
        }
    }
}
