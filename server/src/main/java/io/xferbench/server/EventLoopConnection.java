package io.xferbench.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.socket.DuplexChannel;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Prepared;
import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Trailer;
import io.xferbench.core.protocol.UploadReport;
import io.xferbench.core.protocol.Wire;
import io.xferbench.core.protocol.WindowOverlap;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.UploadMethods;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * One connection of an event-loop model ({@link EventLoopServer}), run on its event loop: the channel's life, its
 * receive buffer, its states and deadlines, where its file work runs, and the native protocol's operations. It serves
 * one request at a time (what arrives meanwhile waits in the buffer); the first bytes tell the native protocol from
 * HTTP/1.1 as {@link Connection} does, and an HTTP connection's requests are {@link EventLoopHttp}'s. Same checks and
 * answers as the threaded models.
 *
 * <p>Everything that touches the filesystem (open and checksum, stat, unlink, an upload's temp file, writes,
 * verification and rename, cache steps, INFO's environment probe, a measurement window's perf set-up) runs on the file
 * pool; the loop only moves bytes: frames, a download's body as a {@link DefaultFileRegion} (sendfile on epoll, splice
 * on io_uring), and an upload's body from the socket into chunks the pool writes. The open-on-loop models are the
 * exception: a download's, HEAD's and STAT's open, fstat and checksum-record lookup run on the loop, as nginx opens
 * files on its loop; a file with no record and a generated file still to write go to the pool
 * ({@link #quickOrOnFiles}).
 */
final class EventLoopConnection extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(EventLoopConnection.class.getName());

    /** The user event that starts shutdown: close now if idle, else after the request in flight. */
    static final Object STOP = new Object();

    private static final Duration LINGER = Duration.ofSeconds(2);
    private static final long MAX_LINGER_BYTES = 1 << 20;
    private static final int MAX_PENDING = 256 * 1024;

    private final String model;
    private final ServerConfig config;
    private final DataDirectory data;
    private final Measurements measurements;
    private final Executor files;
    private final EventLoopConnections connections;
    private final int id;
    /** Open-on-loop models: a download's, HEAD's or STAT's metadata work runs here on the loop (see {@link #quickOrOnFiles}). */
    private final boolean openOnLoop;

    private ChannelHandlerContext ctx;
    private String peer = "unknown";
    /** Received bytes not yet decoded into a request (or, during an upload, not yet handed to the pool). */
    private ByteBuf pending;
    private boolean admitted;
    private boolean refused;
    private boolean sniffed;
    /** The connection's HTTP/1.1 side, once the first bytes said it speaks HTTP; null for the native protocol. */
    private EventLoopHttp http;
    private boolean inFlight;
    /** Auto-read is on (see {@link #paceReading}). */
    private boolean reading = true;
    /** The request in flight is a transfer other measurement windows are told of. */
    private boolean transferring;
    /** An answer that ends the connection was sent: what arrives now is drained, then the connection closes. */
    private boolean ending;
    private long drained;
    private boolean stopping;
    private EventLoopDeadline deadline;
    private EventLoopUpload upload;
    private Measurements.Window window;

    EventLoopConnection(String model, ServerListener.Parts parts, Executor files, EventLoopConnections connections,
            boolean openOnLoop) {
        this.model = model;
        this.openOnLoop = openOnLoop;
        this.config = parts.config();
        this.data = parts.data();
        this.measurements = parts.measurements();
        this.files = files;
        this.connections = connections;
        this.id = connections.nextId();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
        deadline = new EventLoopDeadline(context, model);
        pending = context.alloc().heapBuffer(256);
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        admitted = connections.admit(context.channel());
        if (connections.stopping()) {
            context.close();
            return;
        }
        peer = WindowOverlap.address(context.channel().remoteAddress());
        // Over the limit: answered BUSY on the first read, so the request is consumed and the close sends FIN, not
        // a RST that could destroy the answer before the client reads it.
        refused = !admitted;
        arm(config.idleTimeout(), "idle/header timeout");
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        deadline.cancel();
        transferDone();
        // The temp file goes now, or, with a chunk on the pool, when that chunk returns and finds the upload abandoned.
        if (upload != null && !upload.writing) {
            closeOnPool(upload.placement);
        }
        upload = null;
        if (window != null) {
            // A client gone mid-window must not leave its perf counter running.
            closeOnPool(window);
            window = null;
        }
        connections.closed(context.channel(), admitted);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext context) {
        // Here, not in channelInactive: a channel that never became active still had its buffer allocated.
        pending.release();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (ending) {
                drained += in.readableBytes();
                if (drained > MAX_LINGER_BYTES) {
                    context.close();
                }
                return;
            }
            if (refused) {
                endWith(ResponseCodec.error(Status.BUSY, "server busy: " + connections.maxConnections()
                        + " connections already open (--max-connections)"));
                return;
            }
            pending.writeBytes(in);
        } finally {
            in.release();
        }
        paceReading();
        if (upload != null) {
            feedBody();
        } else {
            decodeNext();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
        if (event == STOP) {
            stopping = true;
            if (!inFlight) {
                context.close();
            }
            return;
        }
        super.userEventTriggered(context, event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        LOG.fine(() -> model + " conn " + context.channel().remoteAddress() + ": closed: " + cause);
        context.close();
    }

    /** Decodes and serves the next request if a whole one has arrived and none is in flight. */
    private void decodeNext() {
        if (inFlight || ending || !ctx.channel().isActive()) {
            return;
        }
        if (!sniffed) {
            if (pending.readableBytes() < ProtocolSniffer.SNIFF_BYTES) {
                return;
            }
            sniffed = true;
            if (ProtocolSniffer.isHttp(pending.nioBuffer(pending.readerIndex(), ProtocolSniffer.SNIFF_BYTES))) {
                http = new EventLoopHttp(this);
            }
        }
        if (http != null) {
            http.decodeNext();
            return;
        }
        if (pending.readableBytes() < Wire.REQUEST_PREFIX_BYTES) {
            return;
        }
        int magic = pending.getInt(pending.readerIndex());
        if (magic != Wire.MAGIC) {
            badRequest(new ProtocolException(Status.BAD_REQUEST, String.format("bad magic 0x%08x (not an xferbench client?)", magic)));
            return;
        }
        int length = pending.getUnsignedShort(pending.readerIndex() + 4);
        if (length > Wire.MAX_REQUEST_BODY_BYTES) {
            badRequest(new ProtocolException(Status.BAD_REQUEST, "request header of " + length + " bytes exceeds "
                    + Wire.MAX_REQUEST_BODY_BYTES));
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
            request = RequestCodec.decodeBody(body.flip());
        } catch (ProtocolException e) {
            badRequest(e);
            return;
        }
        serve(request);
    }

    // ---- what the protocol sides (this class's native serving and EventLoopHttp) share

    String model() {
        return model;
    }

    ServerConfig config() {
        return config;
    }

    ChannelHandlerContext ctx() {
        return ctx;
    }

    /** Received bytes not yet decoded. */
    ByteBuf pending() {
        return pending;
    }

    /** A request is in flight from now on, closed if it is not done within {@code budget}. */
    void begin(Duration budget) {
        inFlight = true;
        arm(budget, "transfer deadline");
    }

    /**
     * Reading stays on between requests and during one (what arrives waits in {@link #pending}); it pauses only while
     * more than {@link #MAX_PENDING} bytes wait, which bounds a pipelining client and paces an upload's body to the
     * pool's writes. Toggling it per request would cost two epoll_ctl calls per request.
     */
    private void paceReading() {
        boolean read = pending.readableBytes() < MAX_PENDING || ending;
        if (read != reading) {
            reading = read;
            ctx.channel().config().setAutoRead(read);
        }
    }

    private void serve(Request request) {
        begin(config.transferBudget(request.size()));
        if (!config.token().isEmpty() && !Tokens.matches(config.token(), request.token())) {
            endWith(ResponseCodec.error(Status.FORBIDDEN, "missing or wrong token"));
            return;
        }
        switch (request.op()) {
            case DOWNLOAD -> download(request);
            case UPLOAD -> upload(request);
            case PREPARE -> prepare(request);
            case STAT -> {
                FileWork<ByteBuffer> stat = () -> ResponseCodec.stat(data.stat(request.name()));
                quickOrOnFiles(stat, stat, frame -> ctx.writeAndFlush(frame(frame)).addListener(f -> written(f.isSuccess())),
                        this::failed);
            }
            case DELETE -> onFiles(() -> {
                data.delete(request.name());
                return ResponseCodec.deleted();
            });
            case INFO -> {
                InetAddress local = ((InetSocketAddress) ctx.channel().localAddress()).getAddress();
                onFiles(() -> ResponseCodec.json(ProtocolJson.write(ServerInfo.describe(config, local))));
            }
            case MEASURE_BEGIN -> measureBegin(request);
            case MEASURE_END -> measureEnd();
            case PROXY -> endWith(ResponseCodec.error(Status.BAD_REQUEST, "this is an xferbench server, not a proxy: PROXY "
                    + "is served by 'xferbench-server --proxy-to HOST:PORT'"));
        }
    }

    /** A request's file work, on the file pool. */
    @FunctionalInterface
    private interface FileWork<T> {
        T run() throws IOException;
    }

    /** Runs {@code work} on the file pool and writes the frame it returns (or the answer to its failure). */
    private void onFiles(FileWork<ByteBuffer> work) {
        offload(work, frame -> ctx.writeAndFlush(frame(frame)).addListener(f -> written(f.isSuccess())), this::failed);
    }

    /**
     * Runs {@code work} on the file pool, then {@code then} with its result (or {@code failure} with what it threw) on
     * this connection's loop. A result the stopped loop cannot take is closed.
     */
    private <T> void offload(FileWork<T> work, Consumer<T> then, Consumer<Throwable> failure) {
        try {
            files.execute(() -> {
                Runnable next;
                T result = null;
                try {
                    T r = work.run();
                    result = r;
                    next = () -> then.accept(r);
                } catch (IOException | RuntimeException | Error e) {
                    next = () -> failure.accept(e);
                }
                try {
                    ctx.executor().execute(next);
                } catch (RejectedExecutionException e) {
                    if (result instanceof AutoCloseable c) {
                        closeQuietly(c);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            // The pool is shut down: the server is stopping.
            ctx.close();
        }
    }

    private void closeOnPool(AutoCloseable c) {
        try {
            files.execute(() -> closeQuietly(c));
        } catch (RejectedExecutionException e) {
            closeQuietly(c);
        }
    }

    /**
     * Opens an existing file of the data directory by a client-supplied name, with its CRC32C, on the file pool, then
     * {@code then} with it (or {@code failure}) on this connection's loop.
     */
    void openFile(String name, Consumer<OpenedFile> then, Consumer<Throwable> failure) {
        quickOrOnFiles(() -> data.openExistingIfRecorded(name), () -> data.openExisting(name), then, failure);
    }

    /**
     * On an open-on-loop model, {@code quick} runs here on the loop, and only what it cannot do (it returns null: a
     * file with no checksum record, a generated file not written yet) or failed at for a reason other than the
     * client's (no such file, refused path) goes to the pool as {@code full}; on the other models {@code full} runs on
     * the pool. {@code quick} touches metadata only (path resolution, open, fstat, the checksum record), as nginx
     * opens files on its loop: a cold-metadata open blocks the loop, and every connection on it, meanwhile.
     */
    private <T> void quickOrOnFiles(FileWork<T> quick, FileWork<T> full, Consumer<T> then, Consumer<Throwable> failure) {
        if (openOnLoop) {
            T result;
            try {
                result = quick.run();
            } catch (NoSuchFileException | AccessDeniedException | Refused e) {
                failure.accept(e);
                return;
            } catch (IOException | RuntimeException e) {
                // Answered from the pool, which retries the full work and words the failure as the other models do.
                result = null;
            }
            if (result != null) {
                then.accept(result);
                return;
            }
        }
        offload(full, then, failure);
    }

    /** The connection's transfer starts: measurement windows of other connections hear of it. */
    void transferStarts() {
        transferring = true;
        measurements.started(id, peer);
    }

    void transferDone() {
        if (transferring) {
            transferring = false;
            measurements.finished(id);
        }
    }

    // ---- DOWNLOAD and PREPARE

    /** The file a DOWNLOAD or PREPARE names (the generated one is created on demand), on the pool. */
    private OpenedFile open(Request request) throws IOException {
        if (request.name().isEmpty() && request.size() > config.maxGenerated()) {
            throw new Refused(Status.TOO_LARGE, "generated files are limited to " + config.maxGenerated() + " bytes");
        }
        try {
            return request.name().isEmpty() ? data.openGenerated(request.size()) : data.openExisting(request.name());
        } catch (NoSuchFileException | AccessDeniedException e) {
            throw e;
        } catch (IOException e) {
            // Creating or hashing the file failed (a full disk, say): the request is answered, the connection lives.
            throw new Refused(FailureStatus.of(e), "cannot prepare " + (request.name().isEmpty()
                    ? DataDirectory.generatedName(request.size()) : request.name()) + ": " + e.getMessage());
        }
    }

    /** The file a DOWNLOAD names, if it is there with its checksum record; null if it must be hashed or generated. */
    private OpenedFile openIfRecorded(Request request) throws IOException {
        if (request.name().isEmpty() && request.size() > config.maxGenerated()) {
            throw new Refused(Status.TOO_LARGE, "generated files are limited to " + config.maxGenerated() + " bytes");
        }
        return request.name().isEmpty() ? data.openGeneratedIfRecorded(request.size()) : data.openExistingIfRecorded(request.name());
    }

    private void download(Request request) {
        if (DownloadMethods.byId(request.method()).isEmpty()) {
            answer(Status.BAD_REQUEST, "unknown download method '" + request.method() + "' (known: "
                    + String.join(", ", DownloadMethods.ids()) + ")");
            return;
        }
        transferStarts();
        // Cache flags on the DOWNLOAD itself are prepared inline, as DownloadHandler does: on the pool, before the header.
        boolean inline = request.has(Flags.CACHE_COLD) || request.has(Flags.CACHE_WARM);
        if (!inline) {
            quickOrOnFiles(() -> {
                OpenedFile file = openIfRecorded(request);
                return file == null ? null : new Opened(file, -1);
            }, () -> new Opened(open(request), -1), opened -> send(opened, false), this::failed);
            return;
        }
        offload(() -> {
            OpenedFile file = open(request);
            try {
                return new Opened(file, inline ? CacheControl.prepare(file.path(), request.flags()) : -1);
            } catch (IOException | RuntimeException e) {
                file.close();
                throw e;
            }
        }, opened -> send(opened, inline), this::failed);
    }

    private record Opened(OpenedFile file, int residencyBefore) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /** Header, body as a file region, trailer; a failure mid-body can only close the connection. */
    private void send(Opened opened, boolean inline) {
        OpenedFile file = opened.file();
        if (!ctx.channel().isActive()) {
            closeQuietly(file);
            return;
        }
        ctx.write(frame(ResponseCodec.downloadHeader(new DownloadHeader(file.size(), file.crc32c(), opened.residencyBefore()))));
        long start = System.nanoTime();
        ChannelFuture body = writeBody(file);
        body.addListener(f -> {
            closeQuietly(file);
            if (!f.isSuccess()) {
                LOG.info(() -> model + " download failed after the header was sent: " + f.cause());
                ctx.close();
                return;
            }
            long nanos = System.nanoTime() - start;
            if (inline) {
                offload(() -> CacheControl.residency(file.path()), residency -> trailer(nanos, residency), this::failed);
            } else {
                trailer(nanos, -1);
            }
        });
    }

    /** The file's bytes as one region (closed by Netty once written; a 0-byte body is just the flush). */
    ChannelFuture writeBody(OpenedFile file) {
        return ctx.writeAndFlush(file.size() == 0 ? Unpooled.EMPTY_BUFFER : new DefaultFileRegion(file.channel(), 0, file.size()));
    }

    private void trailer(long nanos, int residencyAfter) {
        ctx.writeAndFlush(frame(ResponseCodec.trailer(Trailer.ok(nanos, residencyAfter)))).addListener(f -> written(f.isSuccess()));
    }

    /** PREPARE: the file a DOWNLOAD would send, put into the cache state the flags ask for, as DownloadHandler does. */
    private void prepare(Request request) {
        transferStarts();
        onFiles(() -> {
            long start = System.nanoTime();
            int found;
            int left;
            try (OpenedFile file = open(request)) {
                found = CacheControl.residency(file.path());
                try {
                    left = CacheControl.prepare(file.path(), request.flags());
                } catch (IOException e) {
                    throw new Refused(Status.UNAVAILABLE, "cannot put " + file.path().getFileName()
                            + " in the asked cache state: " + e.getMessage());
                }
            }
            return ResponseCodec.prepared(new Prepared(found, left, System.nanoTime() - start));
        });
    }

    // ---- UPLOAD

    /** The checks, then the temp file (on the pool), the ready frame, and the body as it arrives. */
    private void upload(Request request) {
        if (UploadMethods.byId(request.method()).isEmpty()) {
            answer(Status.BAD_REQUEST, "unknown upload method '" + request.method() + "' (known: "
                    + String.join(", ", UploadMethods.ids()) + ")");
            return;
        }
        Refused refusal = UploadPlacement.refusal(request, config);
        if (refusal != null) {
            answer(refusal.status, refusal.getMessage());
            return;
        }
        transferStarts();
        offload(() -> UploadPlacement.open(data, request), placement -> {
            if (!ctx.channel().isActive()) {
                closeOnPool(placement);
                return;
            }
            upload = new EventLoopUpload(request, placement);
            ctx.writeAndFlush(frame(ResponseCodec.uploadReady(request.size())));
            feedBody();
        }, this::failed);
    }

    /** Hands what arrived of the body to the pool, one chunk at a time; the last one completes the upload. */
    private void feedBody() {
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
            return;
        }
        ByteBuffer chunk = ByteBuffer.allocate(n);
        pending.readBytes(chunk);
        pending.discardSomeReadBytes();
        chunk.flip();
        u.handOver(n);
        paceReading();
        offload(() -> {
            u.write(chunk);
            return u;
        }, written -> {
            written.writing = false;
            if (upload != written) {
                closeOnPool(written.placement);
                return;
            }
            feedBody();
        }, e -> {
            u.writing = false;
            closeOnPool(u.placement);
            if (upload != u) {
                return;
            }
            upload = null;
            // Inside the body: answered, the rest drained (bounded), then closed, as UploadHandler does.
            LOG.info(() -> model + " upload of " + u.request.name() + " failed in the body: " + e);
            endWith(ResponseCodec.error(FailureStatus.of(e), "upload of " + u.request.name() + " failed, nothing stored: "
                    + e.getMessage()));
        });
    }

    /** The whole body is written: verified, renamed into place, answered (on the pool). */
    private void completeUpload(EventLoopUpload u) {
        long serverNanos = System.nanoTime() - u.startNanos;
        String name = u.request.name();
        onFiles(() -> {
            try (UploadPlacement placement = u.placement) {
                UploadReport report;
                try {
                    report = placement.verify(u.crc32c(), serverNanos, () -> {
                        throw new IllegalStateException("the event loop checksums every body as it passes");
                    });
                } catch (UploadPlacement.VerifyException e) {
                    LOG.info(() -> model + " upload of " + name + " refused: " + e.getMessage());
                    throw new Refused(Status.VERIFY_FAILED, model + ": " + e.getMessage());
                } catch (IOException e) {
                    throw new Refused(FailureStatus.of(e), model + ": upload of " + name + " not stored: " + e.getMessage());
                }
                try {
                    return ResponseCodec.uploadResult(placement.place(report));
                } catch (IOException e) {
                    throw new Refused(FailureStatus.of(e), model + ": upload of " + name + " not put in place: " + e.getMessage());
                }
            }
        });
    }

    // ---- MEASURE_BEGIN / MEASURE_END

    private void measureBegin(Request request) {
        // A second BEGIN on the same connection restarts its own window; other connections' are untouched.
        Measurements.Window old = window;
        window = null;
        offload(() -> {
            if (old != null) {
                old.close();
            }
            return measurements.begin(id, !request.has(Flags.NO_SYSCALL_COUNT));
        }, begun -> {
            if (!ctx.channel().isActive()) {
                closeOnPool(begun);
                return;
            }
            window = begun;
            ctx.writeAndFlush(frame(ResponseCodec.json("{}".getBytes(StandardCharsets.UTF_8)))).addListener(f -> written(f.isSuccess()));
        }, this::failed);
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

    // ---- answers and the connection's states

    /** The answer to a failed request's file work, as {@link Connection} and {@link DownloadHandler} give it. */
    private void failed(Throwable e) {
        switch (e) {
            case Refused r -> answer(r.status, r.getMessage());
            case NoSuchFileException n -> answer(Status.NOT_FOUND, n.getFile() + ": " + n.getReason());
            case AccessDeniedException a -> {
                LOG.info(() -> model + " conn: refused " + a.getFile() + ": " + a.getReason());
                answer(Status.FORBIDDEN, a.getFile() + ": " + a.getReason());
            }
            case IllegalStateException s -> answer(Status.BAD_REQUEST, s.getMessage());
            // Nothing of the answer was written yet, so the stream is intact: answered, and the connection goes on.
            case IOException io -> answer(FailureStatus.of(io), io.getMessage());
            default -> {
                LOG.warning(model + " conn: internal error: " + e);
                ctx.writeAndFlush(frame(ResponseCodec.error(Status.SERVER_ERROR, e.toString()))).addListener(f -> ctx.close());
            }
        }
    }

    /** Answers an error after which the connection goes on. */
    private void answer(Status status, String message) {
        ctx.writeAndFlush(frame(ResponseCodec.error(status, message))).addListener(f -> written(f.isSuccess()));
    }

    /** The request's answer is written (or failed to be): back to waiting for the next one. */
    void written(boolean ok) {
        inFlight = false;
        transferDone();
        if (!ok || stopping) {
            ctx.close();
            return;
        }
        arm(config.idleTimeout(), "idle/header timeout");
        decodeNext();
        paceReading();
    }

    private void badRequest(ProtocolException e) {
        LOG.info(() -> model + " conn " + ctx.channel().remoteAddress() + ": bad request: " + e.getMessage());
        endWith(ResponseCodec.error(e.status(), e.getMessage()));
    }

    /**
     * Sends a last answer (if any), then FIN, and drains what the client still sends (bounded in bytes and time) before
     * the close: closing with unread input would send RST, which can destroy the answer before the client reads it.
     */
    void endWith(ByteBuffer answer) {
        ending = true;
        inFlight = true;
        pending.clear();
        arm(LINGER, "linger after the last answer");
        paceReading();
        ctx.writeAndFlush(answer == null ? Unpooled.EMPTY_BUFFER : frame(answer)).addListener(f -> {
            if (f.isSuccess() && ctx.channel() instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
            } else {
                ctx.close();
            }
        });
    }

    /** Closes the connection if it is still in the same state after {@code budget}. */
    void arm(Duration budget, String what) {
        deadline.arm(budget, what);
    }

    static ByteBuf frame(ByteBuffer frame) {
        return Unpooled.wrappedBuffer(frame);
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // Closed already (a file region closes its file too), or nothing left to do about it.
        }
    }
}
