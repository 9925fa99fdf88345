package io.xferbench.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Trailer;
import io.xferbench.core.protocol.Wire;
import io.xferbench.core.registry.DownloadMethods;
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
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * One connection of the {@code netty-epoll} model, run on its event loop. It decodes native request frames (within
 * {@link RequestCodec}'s bounds) and serves one request at a time (reading pauses while one is in flight): INFO, STAT,
 * DELETE and DOWNLOAD. Everything that touches the filesystem (stat, unlink, open and checksum, cache steps, INFO's
 * environment probe) runs on the file pool; the loop only moves bytes: the frames, and a download's body as a
 * {@link DefaultFileRegion} (sendfile) between its header and trailer. UPLOAD, PREPARE and MEASURE_BEGIN/END are
 * answered UNAVAILABLE and the connection goes on; PROXY, HTTP and malformed frames are answered and end it.
 */
final class EventLoopConnection extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(EventLoopConnection.class.getName());

    /** The user event that starts shutdown: close now if idle, else after the request in flight. */
    static final Object STOP = new Object();

    static final String SERVED = "INFO, STAT, DELETE, DOWNLOAD";
    private static final String OTHER_MODELS = "--io-model platform, virtual or virtual+pool:N";
    private static final Duration LINGER = Duration.ofSeconds(2);
    private static final long MAX_LINGER_BYTES = 1 << 20;

    private final ServerConfig config;
    private final DataDirectory data;
    private final Executor files;
    private final EventLoopConnections connections;

    private ChannelHandlerContext ctx;
    /** Received bytes not yet decoded into a request. */
    private ByteBuf pending;
    private boolean admitted;
    private boolean refused;
    private boolean sniffed;
    private boolean inFlight;
    /** An answer that ends the connection was sent: what arrives now is drained, then the connection closes. */
    private boolean ending;
    private long drained;
    private boolean stopping;
    private ScheduledFuture<?> deadline;

    EventLoopConnection(ServerConfig config, DataDirectory data, Executor files, EventLoopConnections connections) {
        this.config = config;
        this.data = data;
        this.files = files;
        this.connections = connections;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
        pending = context.alloc().heapBuffer(256);
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        admitted = connections.admit(context.channel());
        if (connections.stopping()) {
            context.close();
            return;
        }
        // Over the limit: answered BUSY on the first read, so the request is consumed and the close sends FIN, not
        // a RST that could destroy the answer before the client reads it.
        refused = !admitted;
        arm(config.idleTimeout(), "idle/header timeout");
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        cancelDeadline();
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
        decodeNext();
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
        LOG.fine(() -> "netty conn " + context.channel().remoteAddress() + ": closed: " + cause);
        context.close();
    }

    /** Decodes and serves the next request if a whole frame has arrived and none is in flight. */
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
                refuseHttp();
                return;
            }
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
            badRequest(new ProtocolException(Status.BAD_REQUEST, "request header of " + length + " bytes exceeds " + Wire.MAX_REQUEST_BODY_BYTES));
            return;
        }
        if (pending.readableBytes() < Wire.REQUEST_PREFIX_BYTES + length) {
            return;
        }
        ByteBuffer body = ByteBuffer.allocate(length);
        pending.skipBytes(Wire.REQUEST_PREFIX_BYTES).readBytes(body);
        pending.discardReadBytes();
        Request request;
        try {
            request = RequestCodec.decodeBody(body.flip());
        } catch (ProtocolException e) {
            badRequest(e);
            return;
        }
        serve(request);
    }

    private void serve(Request request) {
        inFlight = true;
        ctx.channel().config().setAutoRead(false);
        arm(config.transferBudget(request.size()), "transfer deadline");
        if (!config.token().isEmpty() && !Tokens.matches(config.token(), request.token())) {
            ctx.writeAndFlush(frame(ResponseCodec.error(Status.FORBIDDEN, "missing or wrong token"))).addListener(f -> ctx.close());
            return;
        }
        switch (request.op()) {
            case DOWNLOAD -> download(request);
            case STAT -> onFiles(() -> ResponseCodec.stat(data.stat(request.name())));
            case DELETE -> onFiles(() -> {
                data.delete(request.name());
                return ResponseCodec.deleted();
            });
            case INFO -> {
                InetAddress local = ((InetSocketAddress) ctx.channel().localAddress()).getAddress();
                onFiles(() -> ResponseCodec.json(ProtocolJson.write(ServerInfo.describe(config, local))));
            }
            case PROXY -> endWith(ResponseCodec.error(Status.BAD_REQUEST, "this is an xferbench server, not a proxy: PROXY "
                    + "is served by 'xferbench-server --proxy-to HOST:PORT'"));
            case UPLOAD, PREPARE, MEASURE_BEGIN, MEASURE_END -> answer(Status.UNAVAILABLE, "the netty-epoll I/O model serves "
                    + SERVED + ", not " + request.op() + " yet; " + OTHER_MODELS + " serve every operation");
        }
    }

    /** A request's file work, on the file pool. */
    @FunctionalInterface
    private interface FileWork<T> {
        T run() throws IOException;
    }

    /** Runs {@code work} on the file pool and writes the frame it returns (or the answer to its failure). */
    private void onFiles(FileWork<ByteBuffer> work) {
        offload(work, frame -> ctx.writeAndFlush(frame(frame)).addListener(f -> written(f.isSuccess())));
    }

    /** Runs {@code work} on the file pool, then {@code then} with its result on this connection's loop. */
    private <T> void offload(FileWork<T> work, Consumer<T> then) {
        try {
            files.execute(() -> {
                T result;
                try {
                    result = work.run();
                } catch (IOException | RuntimeException | Error e) {
                    ctx.executor().execute(() -> failed(e));
                    return;
                }
                ctx.executor().execute(() -> then.accept(result));
            });
        } catch (RejectedExecutionException e) {
            // The pool is shut down: the server is stopping.
            ctx.close();
        }
    }

    private void download(Request request) {
        if (DownloadMethods.byId(request.method()).isEmpty()) {
            answer(Status.BAD_REQUEST, "unknown download method '" + request.method() + "' (known: "
                    + String.join(", ", DownloadMethods.ids()) + ")");
            return;
        }
        boolean generated = request.name().isEmpty();
        if (generated && request.size() > config.maxGenerated()) {
            answer(Status.TOO_LARGE, "generated files are limited to " + config.maxGenerated() + " bytes");
            return;
        }
        // Cache flags on the DOWNLOAD itself are prepared inline, as DownloadHandler does: on the pool, before the header.
        boolean inline = request.has(Flags.CACHE_COLD) || request.has(Flags.CACHE_WARM);
        offload(() -> {
            OpenedFile file = generated ? data.openGenerated(request.size()) : data.openExisting(request.name());
            try {
                return new Opened(file, inline ? CacheControl.prepare(file.path(), request.flags()) : -1);
            } catch (IOException | RuntimeException e) {
                file.close();
                throw e;
            }
        }, opened -> send(opened, inline));
    }

    private record Opened(OpenedFile file, int residencyBefore) {
    }

    /** Header, body by sendfile, trailer; a failure mid-body can only close the connection. */
    private void send(Opened opened, boolean inline) {
        OpenedFile file = opened.file();
        if (!ctx.channel().isActive()) {
            closeQuietly(file);
            return;
        }
        ctx.write(frame(ResponseCodec.downloadHeader(new DownloadHeader(file.size(), file.crc32c(), opened.residencyBefore()))));
        long start = System.nanoTime();
        // The region closes the file's channel once written; a 0-byte body is just the flush.
        ChannelFuture body = ctx.writeAndFlush(file.size() == 0 ? Unpooled.EMPTY_BUFFER : new DefaultFileRegion(file.channel(), 0, file.size()));
        body.addListener(f -> {
            closeQuietly(file);
            if (!f.isSuccess()) {
                LOG.info(() -> "netty-epoll download failed after the header was sent: " + f.cause());
                ctx.close();
                return;
            }
            long nanos = System.nanoTime() - start;
            if (inline) {
                offload(() -> CacheControl.residency(file.path()), residency -> trailer(nanos, residency));
            } else {
                trailer(nanos, -1);
            }
        });
    }

    private void trailer(long nanos, int residencyAfter) {
        ctx.writeAndFlush(frame(ResponseCodec.trailer(Trailer.ok(nanos, residencyAfter)))).addListener(f -> written(f.isSuccess()));
    }

    /** The answer to a failed request's file work, as {@link Connection} and {@link DownloadHandler} give it. */
    private void failed(Throwable e) {
        switch (e) {
            case NoSuchFileException n -> answer(Status.NOT_FOUND, n.getFile() + ": " + n.getReason());
            case AccessDeniedException a -> {
                LOG.info(() -> "netty conn: refused " + a.getFile() + ": " + a.getReason());
                answer(Status.FORBIDDEN, a.getFile() + ": " + a.getReason());
            }
            case IllegalStateException s -> answer(Status.BAD_REQUEST, s.getMessage());
            // Nothing of the answer was written yet, so the stream is intact: answered, and the connection goes on.
            case IOException io -> answer(FailureStatus.of(io), io.getMessage());
            default -> {
                LOG.warning("netty conn: internal error: " + e);
                ctx.writeAndFlush(frame(ResponseCodec.error(Status.SERVER_ERROR, e.toString()))).addListener(f -> ctx.close());
            }
        }
    }

    /** Answers an error after which the connection goes on. */
    private void answer(Status status, String message) {
        ctx.writeAndFlush(frame(ResponseCodec.error(status, message))).addListener(f -> written(f.isSuccess()));
    }

    /** The request's answer is written (or failed to be): back to waiting for the next one. */
    private void written(boolean ok) {
        inFlight = false;
        if (!ok || stopping) {
            ctx.close();
            return;
        }
        arm(config.idleTimeout(), "idle/header timeout");
        ctx.channel().config().setAutoRead(true);
        decodeNext();
    }

    private void badRequest(ProtocolException e) {
        LOG.info(() -> "netty conn " + ctx.channel().remoteAddress() + ": bad request: " + e.getMessage());
        endWith(ResponseCodec.error(e.status(), e.getMessage()));
    }

    private void refuseHttp() {
        byte[] text = ("the netty-epoll I/O model serves the native protocol only; HTTP is served by " + OTHER_MODELS + "\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] head = ("HTTP/1.1 501 Not Implemented\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + text.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8);
        endWith(ByteBuffer.allocate(head.length + text.length).put(head).put(text).flip());
    }

    /**
     * Sends a last answer, then FIN, and drains what the client still sends (bounded in bytes and time) before the
     * close: closing with unread input would send RST, which can destroy the answer before the client reads it.
     */
    private void endWith(ByteBuffer answer) {
        ending = true;
        inFlight = true;
        pending.clear();
        arm(LINGER, "linger after the last answer");
        ctx.channel().config().setAutoRead(true);
        ctx.writeAndFlush(frame(answer)).addListener(f -> {
            if (f.isSuccess() && ctx.channel() instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
            } else {
                ctx.close();
            }
        });
    }

    /** Closes the connection if it is still in the same state after {@code budget}. */
    private void arm(Duration budget, String what) {
        cancelDeadline();
        long nanos = Math.min(budget.toNanos(), Long.MAX_VALUE / 4);
        deadline = ctx.executor().schedule(() -> {
            LOG.info(() -> "netty conn " + ctx.channel().remoteAddress() + ": closed after its " + what + " passed");
            ctx.close();
        }, nanos, TimeUnit.NANOSECONDS);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    private static ByteBuf frame(ByteBuffer frame) {
        return Unpooled.wrappedBuffer(frame);
    }

    private static void closeQuietly(OpenedFile file) {
        try {
            file.close();
        } catch (IOException ignored) {
            // Closed already (the region does it too).
        }
    }
}
