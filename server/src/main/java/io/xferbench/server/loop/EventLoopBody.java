package io.xferbench.server.loop;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.unix.UnixChannel;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.LoopSender;
import io.xferbench.core.method.LoopSocket;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Status;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.model.AnswerHead;
import io.xferbench.server.model.PerConnection;
import io.xferbench.server.request.FailureStatus;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * How a download's head and body leave an event-loop connection, by the method the request names: a loop method
 * ({@link SenderMethod#loopSender}) on the loop; any other on the file pool, writing head and body to the
 * connection's socket through a blocking JDK channel over a duplicate of its descriptor, as a thread of the threaded
 * models does. Netty writes nothing meanwhile (the connection serves one request at a time). What a method cannot do
 * here is refused UNAVAILABLE before anything is written, never sent another way.
 *
 * <p>That channel is made on the first pool send and kept for the connection's life, so a kept-alive connection's
 * requests pay the dup once and its senders' adopted channels stay theirs, as on the threaded models. When the
 * connection closes, the socket is shut down both ways through it (as {@link ConnectionRegistry} ends a threaded
 * connection), which wakes a send blocked in any way (a JDK write, sendfile or splice on the shim, a ring's send); the
 * channel and the senders are closed only once no send uses them: a sender on the shim calls the dup's fd number,
 * which a close would free for the next accept.
 */
final class EventLoopBody implements LoopSocket {
    private final EventLoopExchange conn;
    private final EventLoopTransport transport;
    private final boolean corked;
    /** The senders the pool has built for this connection; used by one pool task at a time. */
    private final PerConnection<FileSender> senders;
    /** Null until loop sendfile is first wanted, then whether the socket is ready for it ({@link LoopSendfile#prepare}). */
    private Boolean sendfileReady;
    /** The pool's channel over a dup of the socket, from its first send to the connection's end; loop only. */
    private SocketChannel poolSocket;
    /** A pool send is in flight: it closes {@link #poolSocket} and the senders if the connection closed meanwhile. Loop only. */
    private boolean poolSending;
    /** The connection closed ({@link #closed}). Loop only. */
    private boolean connectionClosed;

    /** How the answer ended; each runs on the loop, the file closed already. */
    interface Outcome {
        /** The body is out, in {@code nanos}. */
        void sent(long nanos);

        /** Nothing was written: the request is answered with this error and the connection goes on. */
        void refused(Status status, String message);

        /** Nothing was written, for a reason of the server's own (a RuntimeException, an Error): an internal error. */
        void internal(Throwable cause);

        /** Failed past the head: the connection can only close. */
        void failed(Throwable cause);
    }

    EventLoopBody(EventLoopExchange conn, EventLoopTransport transport, boolean corked, BufferBudget buffers) {
        this.conn = conn;
        this.transport = transport;
        this.corked = corked;
        this.senders = new PerConnection<>(buffers);
    }

    /** At the connection's start, where the transport sends small bodies by loop sendfile (its socket made non-blocking then). */
    void prepare() {
        if (transport.loopSendfile) {
            loopSendfileUnavailable();
        }
    }

    /** What {@code X-Xferbench-Method} names for a body of {@code size} bytes sent by {@code method}. */
    String sentAs(SenderMethod method, long size) {
        LoopSender loop = method.loopSender();
        return loop == null ? method.id() : loop.sentAs(this, size);
    }

    /**
     * Null when {@code method} can send a body of {@code size} bytes here, else why not (answered UNAVAILABLE before
     * anything is written). A pool method is asked on the pool, by its sender ({@link #send}). A RuntimeException or
     * Error is thrown to the caller, which answers it before anything is written, as any other of its own.
     */
    String unsupported(SenderMethod method, long size) {
        LoopSender loop = method.loopSender();
        if (loop == null) {
            return null;
        }
        try {
            loop.checkSupported(this, size);
            return null;
        } catch (UnsupportedTransferException e) {
            return method.id() + ": " + e.getMessage();
        }
    }

    /**
     * Writes {@code head}, then the body of {@code file} by {@code method} (a loop method {@link #unsupported} passed),
     * or refuses; {@code file} is closed by the time {@code outcome} hears, or when this throws.
     */
    void send(SenderMethod method, TransferOptions options, ByteBuf head, OpenedFile file, Outcome outcome) {
        SourceFile source = new SourceFile(file.path(), file.channel(), file.size());
        LoopSender loop = method.loopSender();
        if (loop == null) {
            onPool(method, options, head, file, source, outcome);
            return;
        }
        conn.request().answerStarts();
        long start;
        ChannelFuture body;
        try {
            loop.writeHead(this, head, file.size());
            start = System.nanoTime();
            body = loop.send(this, source);
        } catch (RuntimeException | Error e) {
            // Not handed to a write's listener: the file is ours to close (the head is the pipeline's once written).
            Quietly.close(file);
            throw e;
        }
        long started = start;
        body.addListener(f -> {
            Quietly.close(file);
            if (f.isSuccess()) {
                outcome.sent(System.nanoTime() - started);
            } else {
                outcome.failed(f.cause());
            }
        });
    }

    /**
     * What the pool did: refused before writing (with a status, or {@code internal}: a failure of the server's own),
     * or sent (nanos), or failed past the head ({@code cut}).
     */
    private record PoolResult(Status status, String refusal, Throwable internal, long nanos, Throwable cut) {
    }

    private void onPool(SenderMethod method, TransferOptions options, ByteBuf head, OpenedFile file, SourceFile source, Outcome outcome) {
        // Closed, the channel's descriptor number may be another connection's already.
        String why = connectionClosed ? "the connection closed" : poolUnavailable(method);
        Status refusal = Status.UNAVAILABLE;
        if (why == null && poolSocket == null) {
            try {
                poolSocket = Fds.socketChannel(Fds.dup(((UnixChannel) ctx().channel()).fd().intValue()),
                        (InetSocketAddress) ctx().channel().remoteAddress());
            } catch (NativeException | RuntimeException e) {
                why = "no blocking channel over this connection's socket: " + e.getMessage();
                // Out of descriptors (EMFILE) the same request succeeds later: BUSY, as a file open failing so is.
                refusal = FailureStatus.of(e) == Status.BUSY ? Status.BUSY : Status.UNAVAILABLE;
            }
        }
        if (why != null) {
            head.release();
            Quietly.close(file);
            outcome.refused(refusal, method.id() + ": " + why);
            return;
        }
        SocketChannel channel = poolSocket;
        conn.request().answerStarts();
        ByteBuffer headBytes = ByteBuffer.allocate(head.readableBytes());
        head.readBytes(headBytes);
        head.release();
        headBytes.flip();
        poolSending = true;
        // A task of its own: a body's send must not wait behind, nor hold up, other connections' file work.
        conn.fileWork().offloadAlone(() -> {
            try (file) {
                return sendOnPool(method, options, headBytes, source, channel);
            }
        }, result -> {
            poolSendEnded();
            if (result.internal() != null) {
                // Nothing of the answer was written after all: it can still be answered.
                conn.request().answerWithdrawn();
                outcome.internal(result.internal());
            } else if (result.refusal() != null) {
                outcome.refused(result.status(), result.refusal());
            } else if (result.cut() != null) {
                outcome.failed(result.cut());
            } else {
                outcome.sent(result.nanos());
            }
        }, e -> {
            poolSendEnded();
            outcome.failed(e);
        }, () -> {
            // The loop is gone, so nothing else will: the send's own thread releases what it used.
            Quietly.close(file);
            Quietly.close(senders);
            Quietly.close(channel);
        });
    }

    /** The pool's send is over: if the connection closed meanwhile, what it used goes now. */
    private void poolSendEnded() {
        poolSending = false;
        if (connectionClosed) {
            releasePool();
        }
    }

    private PoolResult sendOnPool(SenderMethod method, TransferOptions options, ByteBuffer head, SourceFile source,
            SocketChannel socket) {
        FileSender sender;
        try {
            sender = senders.get(method.id(), options, method.bufferBytes(options), () -> method.newSender(options));
            sender.checkSupported(source, 0, source.size());
        } catch (PerConnection.BudgetExceeded e) {
            return new PoolResult(Status.BUSY, e.getMessage(), null, 0, null);
        } catch (IOException e) {
            return new PoolResult(Status.UNAVAILABLE, method.id() + ": " + e.getMessage(), null, 0, null);
        } catch (RuntimeException | Error e) {
            // Before the head: answered as the server's own failure, not as a body cut short.
            return new PoolResult(null, null, e, 0, null);
        }
        try {
            AnswerHead.write(socket, head); // MSG_MORE: it leaves with the body, as on the thread models
            long start = System.nanoTime();
            sender.send(source, 0, source.size(), socket);
            return new PoolResult(null, null, null, System.nanoTime() - start, null);
        } catch (IOException | RuntimeException | Error e) {
            // Mid-body the sender's state cannot be trusted, nor the stream: the connection closes.
            senders.discard(method.id(), options);
            return new PoolResult(null, null, null, 0, e);
        }
    }

    /** Null when {@code method} can run on the pool over this connection's socket, else why not. */
    private String poolUnavailable(SenderMethod method) {
        Availability availability = method.availability();
        if (!availability.isAvailable()) {
            return availability.unavailableReason();
        }
        if (!(ctx().channel() instanceof UnixChannel)) {
            return "a blocking method runs on the file pool over the socket's descriptor, which this channel does not expose";
        }
        return Fds.unavailableReason();
    }

    /**
     * The connection closed: the socket is shut down both ways (Netty's close of its own descriptor leaves it open
     * while the dup lives), which ends a pool send however it blocks; the pool's channel and senders go now, or when
     * that send ends.
     */
    void closed() {
        connectionClosed = true;
        if (poolSocket != null) {
            shutDown(poolSocket);
        }
        if (!poolSending) {
            releasePool();
        }
    }

    /** Output first, so the peer sees a clean end of stream before the send's thread wakes (as ConnectionRegistry.end). */
    private static void shutDown(SocketChannel socket) {
        try {
            socket.shutdownOutput();
        } catch (IOException | RuntimeException ignored) {
            // Already shut down, or the peer reset it.
        }
        try {
            socket.shutdownInput();
        } catch (IOException | RuntimeException ignored) {
            // Already shut down, or the peer reset it.
        }
    }

    /** Closes the senders, then the pool's channel, on the pool; only once no send uses them. */
    private void releasePool() {
        SocketChannel socket = poolSocket;
        poolSocket = null;
        conn.fileWork().closeOnPool(() -> {
            Quietly.close(senders);
            if (socket != null) {
                Quietly.close(socket);
            }
        });
    }

    // ---- LoopSocket

    @Override
    public ChannelHandlerContext ctx() {
        return conn.ctx();
    }

    @Override
    public int copiedBodyLimit() {
        return transport.copiedBodyLimit;
    }

    @Override
    public boolean prefersLoopSendfile() {
        return transport.loopSendfile;
    }

    @Override
    public boolean regionHeadWithMore() {
        return transport.headWithMore;
    }

    @Override
    public void writeHeadWithMore(ByteBuf head) {
        if (corked) {
            ctx().write(head); // the cork holds it already
        } else {
            EventLoopAnswerHead.write(ctx(), head);
        }
    }

    @Override
    public String loopSendfileUnavailable() {
        if (corked) {
            return "not with --cork-responses (sendfile past the pipeline would overtake the cork's held head)";
        }
        if (sendfileReady == null) {
            sendfileReady = LoopSendfile.prepare(ctx().channel());
        }
        if (sendfileReady) {
            return null;
        }
        return !NativeSupport.available() || Fds.unavailableReason() != null
                ? "needs the native shim and the JDK's descriptors (" + (Fds.unavailableReason() != null ? Fds.unavailableReason()
                        : "the JNA shim is unavailable") + ")"
                : "this connection's socket could not be made non-blocking";
    }

    @Override
    public long loopSendfile(SourceFile file) throws IOException {
        return LoopSendfile.send(ctx().channel(), file);
    }
}
