package io.xferbench.core.read;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DirectIoFile;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.Preadv2;
import io.xferbench.nativeio.uring.IoUring;
import io.xferbench.nativeio.uring.PinnedMemory;
import io.xferbench.nativeio.uring.RingOptions;
import io.xferbench.nativeio.uring.RingReads;
import io.xferbench.nativeio.uring.UringProbe;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The read loop of the engines on the suite's own ring ({@link OwnRingEngine}): one thread, {@code concurrency} reads
 * in flight, each submitted as it is queued (batch 1, fio's default), on a ring set up as {@link Shape} says.
 */
final class OwnRingReads {
    /**
     * The ring's options, whether reads use registered buffers (READ_FIXED) and a registered file, and the RWF_* flags
     * each read carries in its SQE (0: none).
     */
    record Shape(boolean sqPoll, boolean fixedBuffers, boolean registeredFile, int rwFlags) {
        Shape(boolean sqPoll, boolean fixedBuffers, boolean registeredFile) {
            this(sqPoll, fixedBuffers, registeredFile, 0);
        }

        RingOptions options(int depth) {
            RingOptions plain = RingOptions.plain(depth);
            // The kernel's default idle time, as fio's --sqthread_poll leaves it.
            return sqPoll ? plain.withSqPoll(1000) : plain;
        }

        /** fio's io_uring flags for the same ring, which the engine's twin runs with. */
        List<String> fioOptions() {
            List<String> flags = new ArrayList<>();
            if (fixedBuffers) {
                flags.add("--fixedbufs");
            }
            if (registeredFile) {
                flags.add("--registerfiles");
            }
            if (sqPoll) {
                flags.add("--sqthread_poll");
            }
            return List.copyOf(flags);
        }

        /** The ring {@code spec} reads through: this shape's, {@code concurrency} deep, with the spec's ring flags. */
        RingOptions options(ReadSpec spec) {
            return spec.ringFlags().applyTo(options(spec.concurrency()));
        }
    }

    private OwnRingReads() {
    }

    static String unsupported(ReadSpec spec, boolean direct, Shape shape) {
        return unsupported(spec, direct, shape, UringProbe.here(), PinnedMemory.here());
    }

    static String unsupported(ReadSpec spec, boolean direct, Shape shape, UringProbe probe, PinnedMemory pinned) {
        if (probe.ring() != null) {
            return probe.ring();
        }
        String flags = spec.ringFlags().unsupported(probe, shape.sqPoll());
        if (flags != null) {
            return flags;
        }
        if (shape.sqPoll() && probe.sqPoll() != null) {
            return probe.sqPoll();
        }
        if (shape.sqPoll() && !shape.registeredFile() && probe.sqPollPlainFiles() != null) {
            return probe.sqPollPlainFiles();
        }
        if (shape.fixedBuffers() && probe.fixedBuffers() != null) {
            return probe.fixedBuffers();
        }
        // The probe registered 64 KiB; the engine registers concurrency × block, which a small RLIMIT_MEMLOCK refuses.
        String pin = shape.fixedBuffers() ? pinned.refusal(spec.concurrency(), spec.blockSize()) : null;
        if (pin != null) {
            return pin;
        }
        if (shape.registeredFile() && probe.fixedFiles() != null) {
            return probe.fixedFiles();
        }
        if ((shape.rwFlags() & Preadv2.RWF_DONTCACHE) != 0) {
            // The ring takes the flag where preadv2 does: the same kernel and file-system checks refuse it.
            String dontCache = DontCacheEngine.dontCacheUnsupported(spec);
            if (dontCache != null) {
                return dontCache;
            }
        }
        return direct ? JnaDirectEngine.directUnsupported(spec) : null;
    }

    static ReadOutcome read(ReadSpec spec, LatencySink latencies, boolean direct, Shape shape) throws IOException {
        if (direct) {
            try (DirectIoFile file = DirectIoFile.openRead(spec.file())) {
                return read(spec, latencies, file.fd(), file.alignment(), shape);
            }
        }
        try (FileChannel channel = FileChannel.open(spec.file(), StandardOpenOption.READ)) {
            return read(spec, latencies, Fds.of(channel), 1, shape);
        }
    }

    private static ReadOutcome read(ReadSpec spec, LatencySink latencies, int fd, int alignment, Shape shape)
            throws IOException {
        ReadPlan plan = spec.plan();
        int blockSize = spec.blockSize();
        List<ByteBuffer> slots = new ArrayList<>(spec.concurrency());
        for (int i = 0; i < spec.concurrency(); i++) {
            slots.add(AlignedBuffers.allocate(blockSize, Math.max(alignment, AlignedBuffers.pageSize())));
        }
        BlockDigest digest = new BlockDigest();
        LatencySink sink = latencies.forThread();
        String shown = spec.file().toString();
        try (IoUring ring = open(spec, shape)) {
            if (shape.fixedBuffers()) {
                registerBuffers(ring, slots);
            }
            RingReads.Source source = RingReads.Source.plain(fd, shown);
            if (shape.registeredFile()) {
                ring.registerFiles(fd);
                source = RingReads.Source.registered(0, shown);
            }
            RingReads reads = new RingReads(ring, source, slots, shape.fixedBuffers(), 1, shape.rwFlags());
            long t0 = System.nanoTime();
            reads.run(Math.toIntExact(plan.ops()), k -> plan.offset(k), blockSize, (op, offset, data, nanos) -> {
                if (data.remaining() != blockSize) {
                    throw new IOException("short read of " + shown + ": " + data.remaining() + " of " + blockSize
                            + " bytes at offset " + offset);
                }
                digest.add(offset, data);
                sink.record(nanos);
            });
            long readNanos = System.nanoTime() - t0;
            return new ReadOutcome(plan.ops(), plan.ops() * blockSize, digest.sum(), readNanos);
        }
    }

    /**
     * The ring of {@code spec} and {@code shape}. A kernel that refuses the spec's ring flags (EINVAL: SINGLE_ISSUER
     * with SQPOLL before the kernel took the pair, say) makes the row a skip with its reason, as the probe's would.
     */
    static IoUring open(ReadSpec spec, Shape shape) throws IOException {
        RingOptions options = shape.options(spec);
        try {
            return IoUring.open(options);
        } catch (NativeException e) {
            if (e.errno() == Errno.EINVAL && spec.ringFlags() != RingFlags.DEFAULT) {
                throw new ReadUnsupportedException(e.getMessage(), e);
            }
            throw e;
        }
    }

    /** ENOMEM is the memlock limit (pinned pages counted per user, so other processes' count too): a skip, not a failure. */
    private static void registerBuffers(IoUring ring, List<ByteBuffer> slots) throws IOException {
        try {
            ring.registerBuffers(slots);
        } catch (NativeException e) {
            if (e.errno() == Errno.ENOMEM) {
                throw new ReadUnsupportedException(e.getMessage(), e);
            }
            throw e;
        }
    }
}
