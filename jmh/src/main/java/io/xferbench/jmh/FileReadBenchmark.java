package io.xferbench.jmh;

import com.sun.nio.file.ExtendedOpenOption;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.mmap.Unmapper;
import io.xferbench.core.method.Availability;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.uring.UringBlockReads;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DirectIoFile;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeSupport;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Reading a file into user memory, no socket. One op = the whole file ({@code size}, 64 MiB by default) read
 * sequentially in {@code block}-sized pieces, so ops/s × size is throughput and syscalls/op is directly "calls
 * per file" (size / block reads for the read(2)-style readers), comparable across block sizes.
 *
 * <ul>
 *   <li>{@code channel-heap}: {@code FileChannel.read(heapBuffer, pos)}: pread64(2) into the JDK's temporary
 *       direct buffer, then a copy into the heap array.</li>
 *   <li>{@code channel-direct}: pread64(2) straight into a page-aligned direct buffer.</li>
 *   <li>{@code channel-direct-unaligned}: the same into a direct buffer at page + 16 bytes.</li>
 *   <li>{@code mmap}: map the whole file (mmap(2)), copy it block by block into an aligned direct buffer
 *       (page faults instead of read calls), unmap (munmap(2)) — all inside the op, as a sender does.</li>
 *   <li>{@code direct-io}: O_DIRECT pread64(2) through the JNA shim ({@code DirectIoFile}) into a buffer aligned as
 *       statx(STATX_DIOALIGN) says; blocks that are not a multiple of that alignment are refused ("SKIPPED: ...").</li>
 *   <li>{@code direct-io-jdk}: a channel opened with {@code ExtendedOpenOption.DIRECT}: O_DIRECT pread64(2)
 *       into an aligned buffer. It bypasses the page cache, so "warm" does not apply: it reads the device.
 *       Blocks that are not a multiple of the file system's block size are refused ("SKIPPED: ...").</li>
 *   <li>{@code io-uring}, {@code io-uring-direct}: IORING_OP_READ with {@value #URING_DEPTH} reads in flight from one
 *       event loop ({@code UringBlockReads}, the disk table's io_uring engine), buffered or O_DIRECT (the JNA shim's
 *       descriptor and alignment).</li>
 * </ul>
 *
 * The file is warm for the buffered readers: {@code @Setup} reads it once. Reads are positional (pread64),
 * like the channel senders of {@code FileToSocketBenchmark}.
 */
public class FileReadBenchmark extends AbstractBenchmark {
    static final int MISALIGNMENT = 16;
    static final int URING_DEPTH = 8;

    @Param({"channel-heap", "channel-direct", "channel-direct-unaligned", "mmap", "direct-io", "direct-io-jdk", "io-uring",
            "io-uring-direct"})
    public String reader;

    /** Bytes per read call (per copy for mmap). */
    @Param({"4096", "131072", "1048576"})
    public int block;

    /** Bytes per op: the file's size; the syscall profiler divides by it for syscalls/MiB. */
    @Param({"67108864"})
    public long size;

    private FileChannel channel;
    private FileChannel direct;
    private DirectIoFile jna;
    private ByteBuffer buffer;
    private Path path;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        TestFile file = BenchData.open().generated(size);
        path = file.path();
        channel = FileChannel.open(path, StandardOpenOption.READ);
        int page = AlignedBuffers.pageSize();
        switch (reader) {
            case "channel-heap" -> buffer = ByteBuffer.allocate(block);
            case "channel-direct" -> buffer = AlignedBuffers.allocate(block, page);
            case "channel-direct-unaligned" -> buffer = AlignedBuffers.misaligned(block, page, MISALIGNMENT);
            case "mmap" -> {
                if (Unmapper.unavailableReason() != null) {
                    throw new IllegalStateException("SKIPPED: mmap: " + Unmapper.unavailableReason());
                }
                if (size > Integer.MAX_VALUE) {
                    throw new IllegalStateException("SKIPPED: mmap maps the whole file in one MappedByteBuffer (< 2 GiB)");
                }
                buffer = AlignedBuffers.allocate(block, page);
            }
            case "direct-io-jdk" -> {
                int fsBlock = Math.toIntExact(Files.getFileStore(path).getBlockSize());
                if (block % fsBlock != 0) {
                    throw new IllegalStateException("SKIPPED: direct-io-jdk needs blocks that are multiples of the file system's "
                            + fsBlock + "-byte block, not " + block);
                }
                try {
                    direct = FileChannel.open(path, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
                } catch (IOException | UnsupportedOperationException e) {
                    throw new IllegalStateException("SKIPPED: direct-io-jdk: O_DIRECT refused for " + path + " (file store "
                            + Files.getFileStore(path).type() + "): " + e.getMessage(), e);
                }
                buffer = AlignedBuffers.allocate(block, Math.max(fsBlock, page));
            }
            case "io-uring" -> requireIoUring();
            case "direct-io", "io-uring-direct" -> {
                if (reader.equals("io-uring-direct")) {
                    requireIoUring();
                }
                if (NativeSupport.unavailableReason() != null) {
                    throw new IllegalStateException("SKIPPED: direct-io: " + NativeSupport.unavailableReason());
                }
                jna = DirectIoFile.openRead(path);
                if (block % jna.alignment() != 0) {
                    throw new IllegalStateException("SKIPPED: " + reader + " needs blocks that are multiples of " + jna.alignment()
                            + " (" + jna.alignmentSource() + "), not " + block);
                }
                buffer = AlignedBuffers.allocate(block, Math.max(jna.alignment(), page));
            }
            default -> throw new IllegalArgumentException("unknown reader '" + reader + "'");
        }
        // Warm the page cache (and this reader's path) once.
        readAll(channel, AlignedBuffers.allocate(1 << 20, page));
        readFile();
    }

    @Benchmark
    public long read(MiBCounter mib) throws IOException {
        long r = readFile();
        mib.add(size);
        return r;
    }

    private long readFile() throws IOException {
        return switch (reader) {
            case "mmap" -> mapAndCopy();
            case "direct-io-jdk" -> readAll(direct, buffer);
            case "direct-io" -> readAll(jna::pread, buffer);
            case "io-uring" -> readThroughIoUring(Fds.of(channel), 1);
            case "io-uring-direct" -> readThroughIoUring(jna.fd(), jna.alignment());
            default -> readAll(channel, buffer);
        };
    }

    private void requireIoUring() {
        Availability uring = NettyTransport.IO_URING.availability();
        if (!uring.isAvailable()) {
            throw new IllegalStateException("SKIPPED: " + reader + ": " + uring.unavailableReason());
        }
    }

    private long readThroughIoUring(int fd, int alignment) throws IOException {
        long[] sum = new long[1];
        UringBlockReads.run(fd, block, alignment, URING_DEPTH, op -> op * block, size / block,
                (offset, b, nanos) -> sum[0] += b.get(b.limit() - 1));
        return sum[0];
    }

    /** A positional read: FileChannel.read or the JNA shim's O_DIRECT pread. */
    @FunctionalInterface
    private interface PositionalRead {
        int read(ByteBuffer dst, long position) throws IOException;
    }

    private long readAll(FileChannel ch, ByteBuffer buf) throws IOException {
        return readAll(ch::read, buf);
    }

    /** pread64 loop; returns one byte per block so nothing can be optimised away. */
    private long readAll(PositionalRead ch, ByteBuffer buf) throws IOException {
        long acc = 0;
        long pos = 0;
        while (pos < size) {
            buf.clear();
            if (size - pos < buf.capacity()) {
                buf.limit((int) (size - pos));
            }
            int n = ch.read(buf, pos);
            if (n <= 0) {
                throw new EOFException(path + " ended at " + pos + " of " + size);
            }
            acc += buf.get(0);
            pos += n;
        }
        return acc;
    }

    private long mapAndCopy() throws IOException {
        MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
        try {
            long acc = 0;
            int end = (int) size;
            for (int pos = 0; pos < end; pos += block) {
                int n = Math.min(block, end - pos);
                buffer.put(0, map, pos, n);
                acc += buffer.get(0);
            }
            return acc;
        } finally {
            Unmapper.unmap(map);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Closer.closeAll(direct, channel, jna);
    }
}
