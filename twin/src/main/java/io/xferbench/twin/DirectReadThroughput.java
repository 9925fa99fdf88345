package io.xferbench.twin;

import com.sun.nio.file.ExtendedOpenOption;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DirectIoFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Sequential O_DIRECT read throughput of a whole file in fixed blocks, one {@code pread64(2)} per block, the Java
 * side of {@code fio --ioengine=psync --direct=1 --rw=read --bs=1m} ({@code scripts/fio-compare}).
 * <pre>
 * DirectReadThroughput FILE [--api jna|jdk] [--block 1MiB] [--rounds 1]
 * </pre>
 * {@code jna}: {@link DirectIoFile} (the JNA shim: open O_DIRECT, statx alignment, pread64 per block).
 * {@code jdk}: {@code FileChannel.open(READ, ExtendedOpenOption.DIRECT)} and {@code read(buffer, position)}.
 * The buffer is page-aligned direct memory. Only the read loop is timed (not JVM start, not open), as fio times
 * only its I/O. Prints {@code direct-read api=A block=B bytes=N seconds=S mibs=X alignment=...} per round.
 */
@Command(name = "direct-read", mixinStandardHelpOptions = true,
        description = "Sequential O_DIRECT read throughput of FILE, one pread64 per block; only the read loop is timed.")
public final class DirectReadThroughput implements Callable<Integer> {
    /** Which O_DIRECT reader: the JNA shim or the JDK's {@code ExtendedOpenOption.DIRECT}. */
    enum Api {
        JNA, JDK
    }

    @Parameters(index = "0", paramLabel = "FILE")
    Path file;
    @Option(names = "--api", defaultValue = "jna", description = "jna (DirectIoFile) or jdk (FileChannel with ExtendedOpenOption.DIRECT) (default: ${DEFAULT-VALUE}).")
    Api api;
    @Option(names = "--block", defaultValue = "1MiB", converter = Converters.BufferSize.class, description = "Bytes per pread64 (default: ${DEFAULT-VALUE}).")
    int block;
    @Option(names = "--rounds", defaultValue = "1", converter = Converters.PositiveInt.class, description = "Reads of the whole file (default: ${DEFAULT-VALUE}).")
    int rounds;

    public static void main(String[] args) {
        System.exit(Cli.run(new DirectReadThroughput(), args));
    }

    @Override
    public Integer call() throws IOException {
        ByteBuffer buffer = AlignedBuffers.allocate(block, Math.max(AlignedBuffers.pageSize(), 4096));
        for (int r = 0; r < rounds; r++) {
            if (api == Api.JNA) {
                readJna(file, buffer);
            } else {
                readJdk(file, buffer);
            }
        }
        return 0;
    }

    private static void readJna(Path file, ByteBuffer buffer) throws IOException {
        try (DirectIoFile direct = DirectIoFile.openRead(file)) {
            long t0 = System.nanoTime();
            long pos = 0;
            while (true) {
                buffer.clear();
                int n = direct.pread(buffer, pos);
                if (n <= 0) {
                    break;
                }
                pos += n;
            }
            long t1 = System.nanoTime();
            print("jna", buffer.capacity(), pos, t1 - t0,
                    direct.alignment() + " (" + direct.alignmentSource() + ")");
        }
    }

    private static void readJdk(Path file, ByteBuffer buffer) throws IOException {
        long blockSize = Files.getFileStore(file).getBlockSize();
        try (FileChannel direct = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            long t0 = System.nanoTime();
            long pos = 0;
            while (true) {
                buffer.clear();
                int n = direct.read(buffer, pos);
                if (n <= 0) {
                    break;
                }
                pos += n;
            }
            long t1 = System.nanoTime();
            print("jdk", buffer.capacity(), pos, t1 - t0, blockSize + " (FileStore.getBlockSize)");
        }
    }

    private static void print(String api, int block, long bytes, long nanos, String alignment) {
        double seconds = nanos / 1e9;
        System.out.printf(Locale.ROOT, "direct-read api=%s block=%d bytes=%d seconds=%.6f mibs=%.1f alignment=%s%n",
                api, block, bytes, seconds, bytes / 1048576.0 / seconds, alignment);
    }
}
