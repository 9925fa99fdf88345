package io.xferbench.jmh;

import io.xferbench.core.method.send.SpliceSender;
import io.xferbench.core.pipe.PipePool;
import io.xferbench.core.pipe.PipeSource;
import io.xferbench.core.pipe.RawSplice;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a splice pipe costs to set up, against short transfers. One op = one file of {@code size} bytes sent with raw
 * splice(2) file → pipe → socket ({@link SpliceSender}, the native shim's {@code Splice.fileToSocket}) to the drain
 * process (as in {@code FileToSocketBenchmark}), taking the pipe from:
 * <ul>
 *   <li>{@code fresh}: pipe2(2) per transfer, F_SETPIPE_SZ when {@code pipeSize} is not the kernel's default 64 KiB
 *       (capped by /proc/sys/fs/pipe-max-size, read once per process), two close(2) — what Netty's splice paths and the
 *       plain {@code splice} relay do per transfer or connection;</li>
 *   <li>{@code thread-local}: a {@link PipePool} holding one pipe per thread and no shared pool;</li>
 *   <li>{@code shared}: a {@link PipePool} with no thread-local slot, only its shared (lock-free, bounded) pool.</li>
 * </ul>
 * {@code pipeSize} is asked for with F_SETPIPE_SZ, capped by /proc/sys/fs/pipe-max-size. With {@code -prof syscalls}
 * the {@code pipe2}, {@code fcntl} and {@code close} per op show the setup; the pooled
 * rows should show none of them and only the splices.
 */
public class PipeSetupBenchmark extends AbstractBenchmark {

    /** Where each transfer's pipe comes from. */
    @Param({"fresh", "thread-local", "shared"})
    public String pipes;

    /** Capacity asked for (F_SETPIPE_SZ unless the default). */
    @Param({"65536", "1048576"})
    public int pipeSize;

    /** Bytes per op (the file's size). */
    @Param({"4096", "65536"})
    public long size;

    private PipeSource pipeSource;
    private SpliceSender sender;
    private FileToDrain fixture;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        BenchMethods.requireAvailable("raw splice", RawSplice.availability());
        pipeSource = switch (pipes) {
            case "fresh" -> PipeSource.fresh(pipeSize);
            case "thread-local" -> new PipePool(pipeSize, 0, true);
            case "shared" -> new PipePool(pipeSize, 4, false);
            default -> throw new IllegalArgumentException("pipes must be fresh, thread-local or shared, not " + pipes);
        };
        sender = new SpliceSender(pipeSource);
        fixture = FileToDrain.open(size);
        fixture.sendOne(sender);
        fixture.requireFirstReceived("splice (" + pipes + ")");
    }

    @Benchmark
    public void transfer(MiBCounter mib) throws IOException {
        fixture.sendOne(sender);
        mib.add(size);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Closer.closeAll(fixture, pipeSource instanceof PipePool pool ? pool : null);
    }
}
