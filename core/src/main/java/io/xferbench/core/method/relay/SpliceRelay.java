package io.xferbench.core.method.relay;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedRelayMethod;
import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.pipe.PipePool;
import io.xferbench.core.pipe.PipeSource;
import io.xferbench.core.pipe.RawSplice;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.Splice;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * Raw splice(2) relay through the native shim: per direction a blocking thread splices socket → its own pipe
 * (up to the pipe's size) and pipe → the other socket until the pipe is empty; end of stream (splice returns 0)
 * is forwarded with shutdown(SHUT_WR). Two pipes per connection (one per direction, since both run at once),
 * resized to the buffer size (F_SETPIPE_SZ, capped at /proc/sys/fs/pipe-max-size; a pipe holds at least a page, so
 * smaller buffers are refused). No user-space copy.
 *
 * <p>{@code splice} opens both pipes per connection (pipe2, F_SETPIPE_SZ unless the default size, two close each);
 * {@code splice-pooled} takes them from the process-wide {@link PipePool} for the size and gives them back, empty,
 * when its direction ends: the proxy worker's direction finds its thread's pipe again, the helper thread's
 * direction (a new thread per connection) one from the shared pool.
 */
public final class SpliceRelay implements Relay {
    public static final RelayMethod METHOD = new DefinedRelayMethod("splice",
            "raw splice(2) via the native shim, a blocking thread and a pipe (F_SETPIPE_SZ = bufferSize) per direction: socket -> pipe -> socket",
            RawSplice::availability, MethodTraits.PLAIN.definedBy("splice"), options -> new SpliceRelay(PipeSource.fresh(options.bufferSize())),
            RelayMethod::bothDirections, AlignedBuffers.pageSize());

    public static final RelayMethod POOLED = new DefinedRelayMethod("splice-pooled",
            "splice, with both pipes taken from and given back to a process-wide pipe pool (thread-local first) instead of pipe2/close per connection",
            RawSplice::availability, MethodTraits.PLAIN.definedBy("splice").notInJmh("PipeSetupBenchmark measures what the pool saves; its relaying is splice's"), options -> new SpliceRelay(PipePool.shared(options.bufferSize())),
            RelayMethod::bothDirections, AlignedBuffers.pageSize());

    private final PipeSource pipes;

    /** A relay taking its two pipes (one per direction) from {@code pipes}. */
    public SpliceRelay(PipeSource pipes) {
        this.pipes = pipes;
    }

    /**
     * The pumps splice on duplicates of the sockets' fds, held until both directions have ended: whoever owns the JDK
     * channels (the proxy, on close) may close them while a pump is between two splices, and a pump still using the
     * JDK's fd number would then splice into whatever descriptor took that number next. Ending a relay is the
     * channels' shutdown, which reaches the sockets through any descriptor.
     */
    @Override
    public Relayed relay(SocketChannel client, SocketChannel upstream) throws IOException {
        // Blocking fds: splice(2) then waits for data and room itself (the JDK's default for these channels).
        client.configureBlocking(true);
        upstream.configureBlocking(true);
        int c = Fds.dup(Fds.of(client));
        try {
            int u = Fds.dup(Fds.of(upstream));
            try {
                return DuplexPump.run(client, upstream, (from, to) -> pump(c, u), (from, to) -> pump(u, c));
            } finally {
                Fds.close(u);
            }
        } finally {
            Fds.close(c);
        }
    }

    private long pump(int in, int out) throws IOException {
        Splice.Pipe pipe = pipes.acquire();
        boolean empty = false;
        try {
            long total = 0;
            while (true) {
                long n = splice(in, pipe.writeFd(), pipe.size());
                if (n == 0) {
                    empty = true; // every byte that went in went out
                    return total;
                }
                for (long left = n; left > 0; ) {
                    left -= splice(pipe.readFd(), out, left);
                }
                total += n;
            }
        } finally {
            pipes.release(pipe, empty);
        }
    }

    private static long splice(int fdIn, int fdOut, long len) throws NativeException {
        while (true) {
            try {
                return Splice.splice(fdIn, -1, fdOut, -1, len, Splice.SPLICE_F_MOVE);
            } catch (NativeException e) {
                if (e.errno() != Errno.EINTR) {
                    throw e;
                }
            }
        }
    }
}
