package io.xferbench.jmh;

import io.xferbench.core.data.TestFile;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.uring.IoUring;
import io.xferbench.nativeio.uring.RingOptions;
import io.xferbench.nativeio.uring.RingReads;
import io.xferbench.nativeio.uring.UringProbe;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Reading a warm file through the suite's own io_uring ring ({@code io.xferbench.nativeio.uring}), the bench-disk
 * engines' rings set up once per trial. One op = the whole file ({@code size}) read in {@code block}-sized
 * IORING_OP_READs, {@value #DEPTH} in flight, each handed to the kernel as it is queued (batch 1), so with
 * {@code -prof syscalls} {@code io_uring_enter/op} is "enters per file":
 *
 * <ul>
 *   <li>{@code uring-raw}: a plain ring, READ into plain buffers on a plain descriptor: an enter per read (size / block).</li>
 *   <li>{@code uring-fixed}: READ_FIXED into registered buffers from a registered file: the same enters, no page
 *       pinning or fd lookup per read.</li>
 *   <li>{@code uring-sqpoll}: an SQPOLL ring: its kernel thread ({@code iou-sqp-PID}) takes the reads from the SQ and
 *       the reader polls the CQ, so enters per op fall toward 0 (one only to wake a sleeping thread, or after a long
 *       spin). The thread's CPU is the price: the profiler's {@code cpu.ms/GiB} counts it with the process, and
 *       {@code cpu.sqpoll.ms/GiB} shows it alone.</li>
 * </ul>
 *
 * {@code @Setup} reads the file once through the ring and checks every block against the same bytes read with
 * pread64, and that the op read the file exactly once: a ring that reads wrong bytes, or not all of them, fails
 * instead of being timed. A ring this kernel refuses fails its {@code @Setup} with "SKIPPED: " and the probe's reason.
 */
public class OwnRingReadBenchmark extends AbstractBenchmark {
    static final int DEPTH = 8;
    /** The kernel's default SQ thread idle time, as bench-disk's uring-sqpoll and fio's --sqthread_poll leave it. */
    static final int SQ_IDLE_MILLIS = 1000;

    @Param({"uring-raw", "uring-fixed", "uring-sqpoll"})
    public String ring;

    /** Bytes per read. */
    @Param({"131072"})
    public int block;

    /** Bytes per op: the file's size; the syscall profiler divides by it for syscalls/MiB and CPU per GiB. */
    @Param({"67108864"})
    public long size;

    private FileChannel channel;
    private IoUring uring;
    private RingReads reads;
    private int ops;
    private long sum;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (size % block != 0) {
            throw new IllegalArgumentException("size " + size + " is not a multiple of block " + block);
        }
        ops = Math.toIntExact(size / block);
        boolean sqPoll = ring.equals("uring-sqpoll");
        boolean fixed = ring.equals("uring-fixed");
        if (!sqPoll && !fixed && !ring.equals("uring-raw")) {
            throw new IllegalArgumentException("unknown ring '" + ring + "'");
        }
        String refused = refusal(ring);
        if (refused != null) {
            throw new IllegalStateException("SKIPPED: " + ring + ": " + refused);
        }
        TestFile file = BenchData.open().generated(size);
        channel = FileChannel.open(file.path(), StandardOpenOption.READ);
        List<ByteBuffer> slots = new ArrayList<>(DEPTH);
        for (int i = 0; i < DEPTH; i++) {
            slots.add(AlignedBuffers.allocate(block, AlignedBuffers.pageSize()));
        }
        RingOptions options = RingOptions.plain(DEPTH);
        uring = IoUring.open(sqPoll ? options.withSqPoll(SQ_IDLE_MILLIS) : options);
        String shown = file.path().toString();
        RingReads.Source source = RingReads.Source.plain(Fds.of(channel), shown);
        if (fixed) {
            uring.registerBuffers(slots);
            uring.registerFiles(Fds.of(channel));
            source = RingReads.Source.registered(0, shown);
        }
        reads = new RingReads(uring, source, slots, fixed, 1);
        verifyOneOp();
    }

    /** Why this kernel refuses the ring {@code ring} needs (the probe's words), or null. */
    static String refusal(String ring) {
        UringProbe probe = UringProbe.here();
        if (probe.ring() != null) {
            return probe.ring();
        }
        if (ring.equals("uring-sqpoll")) {
            return probe.sqPoll() != null ? probe.sqPoll() : probe.sqPollPlainFiles();
        }
        if (ring.equals("uring-fixed")) {
            return probe.fixedBuffers() != null ? probe.fixedBuffers() : probe.fixedFiles();
        }
        return null;
    }

    /** One op through the ring, each block compared with pread64's bytes at its offset; every block exactly once. */
    private void verifyOneOp() throws IOException {
        boolean[] seen = new boolean[ops];
        ByteBuffer expected = ByteBuffer.allocateDirect(block);
        reads.run(ops, k -> (long) k * block, block, (op, offset, data, nanos) -> {
            expected.clear();
            while (expected.hasRemaining() && channel.read(expected, offset + expected.position()) > 0) {
                // pread64 until the block is full
            }
            if (offset != (long) op * block || seen[op] || data.remaining() != block
                    || data.mismatch(expected.flip()) != -1) {
                throw new IllegalStateException(ring + ": block " + op + " at offset " + offset + " read "
                        + data.remaining() + " bytes that are not the file's (or twice)");
            }
            seen[op] = true;
        });
        for (int op = 0; op < ops; op++) {
            if (!seen[op]) {
                throw new IllegalStateException(ring + ": one op left block " + op + " of " + ops + " unread");
            }
        }
    }

    @Benchmark
    public long read(MiBCounter mib) throws IOException {
        sum = 0;
        reads.run(ops, k -> (long) k * block, block, (op, offset, data, nanos) -> sum += data.get(data.limit() - 1));
        mib.add(size);
        return sum;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        // The ring first: it holds the registered file and buffers.
        Closer.closeAll(uring, channel);
    }
}
