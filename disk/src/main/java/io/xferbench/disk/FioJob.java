package io.xferbench.disk;

import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One fio run matching a Java row: same file, block size, pattern, depth and direct flag. {@code numjobs}
 * stands for threads (psync, mmap), {@code iodepth} for requests in flight (libaio, io_uring, posixaio).
 * Sequential jobs split the span into contiguous stripes; random jobs share {@code ops} and one fixed seed.
 * {@code options} are the ioengine's own flags the Java engine matches (e.g. io_uring's {@code --fixedbufs}).
 */
public record FioJob(String ioengine, List<String> options, Path file, ReadPattern pattern, int blockSize, int numjobs,
                     int iodepth, boolean direct, long span, long ops) {
    public FioJob {
        options = List.copyOf(options);
    }

    public FioJob(String ioengine, Path file, ReadPattern pattern, int blockSize, int numjobs, int iodepth,
                  boolean direct, long span, long ops) {
        this(ioengine, List.of(), file, pattern, blockSize, numjobs, iodepth, direct, span, ops);
    }

    /** The twin of a Java row reading {@code spec}: threads for psync and mmap, requests in flight for the others. */
    static FioJob of(String ioengine, List<String> options, ReadSpec spec, boolean direct) {
        boolean threads = ioengine.equals("psync") || ioengine.equals("mmap");
        return new FioJob(ioengine, options, spec.file(), spec.pattern(), spec.blockSize(), threads ? spec.concurrency() : 1,
                threads ? 1 : spec.concurrency(), direct, spec.span(), spec.plan().ops());
    }

    /** The engine column of the twin's row: the ioengine, and its flags when it has any ("io_uring --sqthread_poll"). */
    public String label() {
        return options.isEmpty() ? ioengine : ioengine + " " + String.join(" ", options);
    }

    public int queueDepth() {
        return Math.max(numjobs, iodepth);
    }

    /**
     * Whether the row's CPU must be the whole fio process's, setup included, rather than fio's own figures: fio reads
     * its CPU with getrusage(RUSAGE_THREAD) for the job thread, which leaves out an SQPOLL ring's kernel thread, the
     * core that option burns (the Java row counts it: getrusage(RUSAGE_SELF) covers every thread of the JVM).
     */
    public boolean cpuOfWholeProcess() {
        return options.contains("--sqthread_poll");
    }

    public List<String> command(String fio) {
        List<String> c = new ArrayList<>(List.of(fio, "--output-format=json", "--name=xferbench", "--readonly",
                "--filename=" + file, "--ioengine=" + ioengine, "--bs=" + blockSize, "--direct=" + (direct ? 1 : 0),
                "--numjobs=" + numjobs, "--iodepth=" + iodepth, "--group_reporting", "--thread",
                // The rig evicts the file itself before a cold row; fio must not touch the cache state.
                "--invalidate=0",
                // fio's default fadvise_hint=1 calls posix_fadvise(SEQUENTIAL or RANDOM) (madvise for its mmap
                // engine), which doubles or switches off read-ahead; the Java engines give the kernel no hint.
                "--fadvise_hint=0"));
        c.addAll(options);
        if (pattern == ReadPattern.SEQUENTIAL) {
            long stripe = span / numjobs / blockSize * blockSize;
            c.addAll(List.of("--rw=read", "--size=" + stripe, "--offset_increment=" + stripe));
        } else {
            c.addAll(List.of("--rw=randread", "--size=" + span, "--io_size=" + Math.max(1, ops / numjobs) * blockSize,
                    "--norandommap", "--randrepeat=0", "--randseed=42"));
        }
        return c;
    }
}
