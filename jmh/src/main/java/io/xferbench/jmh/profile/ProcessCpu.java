package io.xferbench.jmh.profile;

import io.xferbench.nativeio.ResourceUsage;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * CPU time of this process: the whole process's from getrusage(RUSAGE_SELF) (every thread's, those that exited
 * included, µs), and each thread's from /proc/self/task/TID/schedstat (time on a CPU, ns), so that the io_uring SQPOLL
 * threads' share ({@code iou-sqp-PID}, kernel threads of the process's thread group since Linux 5.12) is the process's
 * CPU less that of its other threads. Measured that way because an SQ thread's own record goes when it exits: JMH
 * tears a trial down (closing the ring, ending its SQ thread) before the profiler's last look, and the SQ thread of
 * UringProbe's throw-away ring exits some time after that ring is closed. A thread other than an SQ thread that
 * exits inside a window would be counted in the SQPOLL share; the JVM's threads live across the iterations.
 */
final class ProcessCpu {
    static final String SQPOLL_THREAD = "iou-sqp-";

    /** The process's CPU ns so far, each live thread's, and which of them are SQPOLL threads. */
    record Sample(long processNanos, Map<Long, Long> nanosByThread, Set<Long> sqPollThreads) {
        Sample {
            nanosByThread = Map.copyOf(nanosByThread);
            sqPollThreads = Set.copyOf(sqPollThreads);
        }

        /** What the process used from this sample until {@code later}, and the SQPOLL threads' part of it. */
        Usage until(Sample later) {
            long all = later.processNanos - processNanos;
            Set<Long> sqPoll = new HashSet<>(sqPollThreads);
            sqPoll.addAll(later.sqPollThreads);
            if (sqPoll.isEmpty()) {
                return new Usage(all, 0, 0);
            }
            long others = 0;
            for (Map.Entry<Long, Long> e : later.nanosByThread.entrySet()) {
                if (!sqPoll.contains(e.getKey())) {
                    others += e.getValue() - nanosByThread.getOrDefault(e.getKey(), 0L);
                }
            }
            return new Usage(all, Math.max(0, all - others), sqPoll.size());
        }
    }

    /** CPU ns used: by the whole process, by its SQPOLL threads (sqPollThreads: how many there were). */
    record Usage(long processNanos, long sqPollNanos, int sqPollThreads) {
        static final Usage ZERO = new Usage(0, 0, 0);

        Usage plus(Usage other) {
            return new Usage(processNanos + other.processNanos, sqPollNanos + other.sqPollNanos,
                    Math.max(sqPollThreads, other.sqPollThreads));
        }
    }

    /** Where samples come from: /proc here, fixed numbers in tests. */
    @FunctionalInterface
    interface Source {
        Sample sample() throws IOException;
    }

    private ProcessCpu() {
    }

    static Sample sample() throws IOException {
        Map<Long, Long> nanos = new HashMap<>();
        Set<Long> sqPoll = new HashSet<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                long tid = Long.parseLong(task.getFileName().toString());
                try {
                    nanos.put(tid, onCpuNanos(Files.readString(task.resolve("schedstat"))));
                    if (Files.readString(task.resolve("comm")).startsWith(SQPOLL_THREAD)) {
                        sqPoll.add(tid);
                    }
                } catch (NoSuchFileException gone) {
                    // A thread that exited between the listing and the read.
                }
            }
        }
        ResourceUsage process = ResourceUsage.process();
        return new Sample((process.userMicros() + process.systemMicros()) * 1000, nanos, sqPoll);
    }

    /** The first field of a schedstat line: time spent on a CPU, ns. */
    static long onCpuNanos(String schedstat) {
        return Long.parseLong(schedstat.strip().split(" ")[0]);
    }
}
