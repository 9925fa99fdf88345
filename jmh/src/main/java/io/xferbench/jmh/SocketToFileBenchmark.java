package io.xferbench.jmh;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.jmh.drain.FeedProcess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One op = one whole upload body received from loopback TCP into a file by an upload method, with the very
 * {@link FileReceiver} the server uses: the file is truncated to 0 (one ftruncate(2), standing in for the server's
 * new temp file, so every op writes into fresh page-cache pages) and then {@code receive(socket, file, path, size)}
 * reads exactly {@code size} bytes into it. ops/s × size is the receiver's throughput.
 *
 * <p><b>The sender is a separate process</b>, the <i>feeder</i> (a child JVM, {@code FeedServer}), so its writes
 * are not counted with the receiver's syscalls. Each op asks it for one body through shared memory (a release store:
 * no syscall here) and it sends the test file once with sendfile(2), as an upload client sends one body per request.
 * One body at a time matters: the io-uring receiver keeps a receive outstanding and would swallow bytes of the next
 * body if the feeder streamed ahead (the server would refuse them as "more than declared"). Each op's body is the
 * file: {@code @Setup} receives one and compares the CRC32C of what landed in the file with the test file's. The
 * feeder waits for requests spinning, then yielding, on its own core.
 *
 * <p>Not in the server's numbers: the CRC32C verification (inline or re-read) and the rename; the receiver alone is
 * timed. A method unavailable here fails its {@code @Setup} with "SKIPPED: &lt;id&gt; is unavailable here: &lt;reason&gt;".
 * {@code splice-pooled} is left out of the default params: on one connection it takes one pipe, as {@code splice}
 * does (pass {@code -p method=splice-pooled} to see).
 */
public class SocketToFileBenchmark extends AbstractBenchmark {

    /** Upload method id, see {@link io.xferbench.core.registry.UploadMethods}. */
    @Param({"stream", "channel-direct", "transfer-from", "mmap", "epoll-splice", "io-uring", "io-uring-recv-write", "splice"})
    public String method;

    /** Bytes per op (the body's size); the syscall profiler divides by it for syscalls/MiB. */
    @Param({"65536", "1048576", "67108864"})
    public long size;

    /** User-space buffer of the copying receivers and pipe size of the splice one. */
    @Param({"65536"})
    public int buffer;

    private FeedProcess feed;
    private Path target;
    private FileChannel file;
    private FileReceiver receiver;
    private long requested;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        ReceiverMethod m = BenchMethods.upload(method);
        m.checkSupported(size);
        TestFile body = BenchData.open().generated(size);
        target = BenchData.dir().resolve(".jmh-upload-" + ProcessHandle.current().pid() + ".dat");
        file = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        receiver = m.newReceiver(new TransferOptions(buffer, false));
        feed = FeedProcess.start(body.path());
        // Warm the receiver's per-connection state and check the bytes that land in the file.
        receiveOne();
        int crc = crc32c(file, size);
        if (crc != body.crc32c()) {
            throw new IllegalStateException(method + " wrote wrong bytes: file CRC32C " + Integer.toHexString(crc) + ", body "
                    + Integer.toHexString(body.crc32c()) + " (feeder " + feed.status() + ")");
        }
    }

    @Benchmark
    public void receive(MiBCounter mib) throws IOException {
        receiveOne();
        mib.add(size);
    }

    private void receiveOne() throws IOException {
        file.truncate(0);
        requested += size;
        feed.request(requested);
        receiver.receive(feed.socket(), file, target, size);
    }

    private static int crc32c(FileChannel file, long size) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        for (long pos = 0; pos < size; ) {
            int n = file.read(buf.clear(), pos);
            if (n < 0) {
                throw new IOException("file ended at " + pos + " of " + size);
            }
            crc.update(buf.flip());
            pos += n;
        }
        return (int) crc.getValue();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        // The receiver first (Netty methods hold a dup of the socket's fd), then the feed, then the file.
        try {
            Closer.closeAll(receiver, feed, file);
        } finally {
            requested = 0;
            if (target != null) {
                Files.deleteIfExists(target);
            }
        }
    }
}
