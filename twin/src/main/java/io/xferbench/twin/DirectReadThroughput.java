package io.xferbench.twin;

import com.sun.nio.file.ExtendedOpenOption;
import io.xferbench.core.Sizes;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DirectIoFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

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
public final class DirectReadThroughput {
    private DirectReadThroughput() {
    }

    public static void main(String[] args) throws IOException {
        Path file = null;
        String api = "jna";
        int block = (int) Sizes.MiB;
        int rounds = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--api" -> api = args[++i];
                case "--block" -> block = Math.toIntExact(Sizes.parse(args[++i]));
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> {
                    if (file != null || args[i].startsWith("--")) {
                        usage();
                    }
                    file = Path.of(args[i]);
                }
            }
        }
        if (file == null || !(api.equals("jna") || api.equals("jdk")) || rounds < 1) {
            usage();
        }
        ByteBuffer buffer = AlignedBuffers.allocate(block, Math.max(AlignedBuffers.pageSize(), 4096));
        for (int r = 0; r < rounds; r++) {
            if (api.equals("jna")) {
                readJna(file, buffer);
            } else {
                readJdk(file, buffer);
            }
        }
    }

    private static void usage() {
        System.err.println("usage: DirectReadThroughput FILE [--api jna|jdk] [--block 1MiB] [--rounds 1]");
        System.exit(2);
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
