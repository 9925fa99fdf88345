package io.xferbench.jmh;

import io.xferbench.core.data.TestFile;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.BufferedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What one call through the JNA shim costs next to the JDK: ns per pread64(2) of a warm 4 KiB block, walking
 * a warm 64 MiB file block by block, with {@code FileChannel.read} (JNI inside the JDK) and with the shim's
 * {@code BufferedFile.pread} (JNA direct mapping). Both make exactly one pread64 per op (check with
 * {@code -prof syscalls}); the difference is the per-call overhead.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ShimCallBenchmark extends AbstractBenchmark {
    private static final int BLOCK = 4096;
    private static final long FILE = 64L << 20;

    @Param({"filechannel", "jna"})
    public String api;

    private FileChannel channel;
    private BufferedFile shim;
    private ByteBuffer buffer;
    private long offset;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        TestFile file = BenchData.open().generated(FILE);
        channel = FileChannel.open(file.path(), StandardOpenOption.READ);
        shim = BufferedFile.openRead(file.path());
        buffer = AlignedBuffers.allocate(BLOCK, AlignedBuffers.pageSize());
        for (long pos = 0; pos < FILE; pos += channel.read(buffer.clear(), pos)) {
            // warm the page cache
        }
    }

    @Benchmark
    public int pread() throws IOException {
        buffer.clear();
        int n = api.equals("jna") ? shim.pread(buffer, offset) : channel.read(buffer, offset);
        offset = (offset + BLOCK) % FILE;
        return n;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        Closer.closeAll(shim, channel);
    }
}
