package io.xferbench.jmh;

import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.TransferOptions;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One op = one whole file sent over loopback TCP by a download method, with the very {@link FileSender} the
 * server uses, and received completely by the drain process (a separate JVM running the suite's
 * {@code BodyReceiver}). The op returns only when the receiver has every byte, so ops/s × size is end-to-end
 * throughput, and the syscalls the profiler counts in this JVM are the sender's alone.
 *
 * <p>The file is warm (in the page cache): it is generated if missing, then sent once in {@code @Setup},
 * whose received CRC32C is checked against the file's, so a method that sends wrong bytes fails instead of
 * being timed. A method unavailable here (e.g. io_uring on an old kernel) fails its {@code @Setup} with
 * "SKIPPED: &lt;id&gt; is unavailable here: &lt;reason&gt;", which JMH prints; it has no result row.
 */
public class FileToSocketBenchmark extends AbstractBenchmark {

    /** Download method id, see {@link io.xferbench.core.registry.DownloadMethods}. */
    @Param({"stream", "channel-heap", "channel-direct", "transfer-to", "sendfile", "mmap", "epoll-sendfile", "io-uring", "io-uring-read-send",
            "io-uring-send-zc", "io-uring-splice-linked", "uring-fixed-send", "uring-fixed-send-zc", "direct-io", "direct-io-jdk",
            "io-uring-direct", "dontcache"})
    public String method;

    /** Bytes per op (the file's size); the syscall profiler divides by it for syscalls/MiB. */
    @Param({"65536", "1048576", "67108864"})
    public long size;

    /** User-space buffer of the copying methods (stream, channel-*, direct-io-jdk); zero-copy ones ignore it. */
    @Param({"65536"})
    public int buffer;

    private FileToDrain fixture;
    private FileSender sender;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        SenderMethod m = BenchMethods.download(method);
        fixture = FileToDrain.open(size);
        sender = m.newSender(new TransferOptions(buffer, false));
        sender.checkSupported(fixture.source(), 0, size);
        // Warm the page cache and the method's per-connection state (buffers, adopted Netty channel), and check
        // the bytes: the drain checksums the first body.
        fixture.sendOne(sender);
        fixture.requireFirstReceived(method);
    }

    @Benchmark
    public void transfer(MiBCounter mib) throws IOException {
        fixture.sendOne(sender);
        mib.add(size);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        // The sender first (Netty methods hold a dup of the socket's fd), then the connection and the drain
        // (which sees EOF and exits), then the file.
        Closer.closeAll(sender, fixture);
    }
}
