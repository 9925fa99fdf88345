package io.xferbench.jmh;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.jmh.drain.DrainServerProcess;
import io.xferbench.jmh.drain.FeedProcess;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One op = one body of {@code size} bytes relayed socket → socket by a proxy relay method, with the very
 * {@link Relay} the proxy uses, running in this JVM on its own threads (Netty event loops, or the relay's blocking
 * pumps) for the whole trial: feeder → [client socket → relay → upstream socket] → drain.
 *
 * <p><b>Sender and receiver are separate processes</b>: the feeder (a child JVM sending the test file with sendfile,
 * once per op, asked through shared memory) on the client side, the drain ({@code BodyReceiver}, as for
 * {@code FileToSocketBenchmark}) on the upstream side. So the syscalls the profiler counts in this JVM are the
 * relay's alone, on whichever thread it makes them. The op asks for one body and spins (acquire loads, no syscall)
 * until the drain has it all; no bytes are in flight between ops, so each op's counts are one body's (a stream
 * would leave megabytes in socket buffers across the profiler's windows and skew syscalls/op by several percent).
 * The spinning takes a core from the relay, the feeder and the drain on a small machine, so compare throughput
 * between relays only on the same machine, and trust the per-op counts more than ops/s.
 *
 * <p>{@code buffer} is the relay buffer of the PROXY frame: the copy relay's user buffer (1 KiB is the seed
 * experiment's) and the splice relay's pipe size (rounded up to a page); the Netty relays ignore it. The first
 * {@code size} bytes the drain receives are checked against the file's CRC32C in {@code @Setup}. A relay unavailable
 * here fails its {@code @Setup} with "SKIPPED: &lt;id&gt; is unavailable here: &lt;reason&gt;". {@code splice-pooled}
 * is left out of the default params: its pipes are taken once per connection, the same as {@code splice} over one
 * long connection (pass {@code -p relay=splice-pooled} to see).
 */
public class ProxyRelayBenchmark extends AbstractBenchmark {

    /** Relay id, see {@link io.xferbench.core.registry.RelayMethods}. */
    @Param({"copy", "epoll-splice", "io-uring", "splice"})
    public String relay;

    /** Bytes per op; the syscall profiler divides by it for syscalls/MiB. */
    @Param({"65536", "1048576"})
    public long size;

    /** Relay buffer: copy's user buffer, splice's pipe size. */
    @Param({"1024", "65536"})
    public int buffer;

    private FeedProcess feed;
    private DrainServerProcess drain;
    private Relay relayer;
    private Thread pump;
    private volatile Throwable failure;
    private long received;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        RelayMethod m = BenchMethods.relay(relay);
        TestFile body = BenchData.open().generated(size);
        drain = DrainServerProcess.start(size);
        feed = FeedProcess.start(body.path());
        relayer = m.newRelay(new TransferOptions(buffer, false));
        SocketChannel client = feed.socket();
        SocketChannel upstream = drain.socket();
        pump = new Thread(() -> {
            try {
                relayer.relay(client, upstream);
            } catch (Throwable t) {
                failure = t;
            }
        }, "xferbench-jmh-relay");
        pump.setDaemon(true);
        pump.start();
        awaitOne();
        BenchMethods.requireReceived(relay, drain.firstCrc32c(), body.crc32c());
    }

    @Benchmark
    public void relay(MiBCounter mib) throws IOException {
        awaitOne();
        mib.add(size);
    }

    private void awaitOne() throws IOException {
        received += size;
        feed.request(received);
        try {
            drain.awaitReceived(received);
        } catch (IOException e) {
            if (failure != null) {
                e.addSuppressed(failure);
            }
            throw new IOException(e.getMessage() + " (relay " + (failure == null ? "running" : "failed: " + failure)
                    + ", feeder " + feed.status() + ")", e);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException, InterruptedException {
        // Stop the flow before closing anything: shut both sockets down (the relays' blocking calls and Netty's dups
        // see it), let the relay return, then close the relay, the drain and the feed.
        if (feed != null) {
            feed.ending();
        }
        for (SocketChannel s : new SocketChannel[] {feed == null ? null : feed.socket(), drain == null ? null : drain.socket()}) {
            if (s == null) {
                continue;
            }
            try {
                s.shutdownInput();
                s.shutdownOutput();
            } catch (IOException ignored) {
                // Already shut down.
            }
        }
        if (pump != null) {
            pump.join(10_000);
        }
        Closer.closeAll(relayer, drain, feed);
        received = 0;
    }
}
