package io.xferbench.core.metrics;

import io.xferbench.nativeio.OpenFilesLimit;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The open-files limit {@code perf stat -p} needs. perf opens one descriptor per event per thread of its target and
 * inherits this process's RLIMIT_NOFILE; on EMFILE it only raises its soft limit to the hard one. A server run under a
 * low hard limit ({@code prlimit --nofile=160}) with hundreds of threads therefore left perf unable to open its events.
 * Where this process may (CAP_SYS_RESOURCE), perf is started through util-linux {@code prlimit} with a hard limit of its
 * own; the server's stays as its user set it.
 */
final class PerfDescriptorLimit {
    static final Path PRLIMIT = Path.of("/usr/bin/prlimit");
    private static final int CAP_SYS_RESOURCE = 24;
    /** perf's own files besides its events: stdio, tracefs, /proc, its libraries. */
    static final long PERF_OWN = 64;

    private PerfDescriptorLimit() {
    }

    /**
     * The command to start perf through for {@code events} events on every thread of {@code pid}: empty when the
     * inherited hard limit is enough.
     *
     * @throws IOException one line saying why the syscalls cannot be counted, when the limit is too low and may not
     *                     be raised
     */
    static List<String> wrapper(long pid, int events) throws IOException {
        long threads = threads(pid);
        return wrapper(threads, events, OpenFilesLimit.current().hard(), nrOpen(), maySetLimits(), Files.isExecutable(PRLIMIT));
    }

    /** The decision, from what {@link #wrapper(long, int)} looked up; package-private for a test. */
    static List<String> wrapper(long threads, int events, long hard, long nrOpen, boolean maySetLimits, boolean prlimit)
            throws IOException {
        long needed = threads * events + PERF_OWN;
        // Twice that: the target may start threads while perf lists them, and perf opens theirs too.
        long wanted = 2 * needed;
        if (hard < 0 || hard >= wanted) { // negative: RLIM_INFINITY read as a signed long
            return List.of();
        }
        if (maySetLimits && prlimit && nrOpen >= needed) {
            long to = Math.min(wanted, nrOpen);
            return List.of(PRLIMIT.toString(), "--nofile=" + to + ":" + to, "--");
        }
        if (hard >= needed) {
            return List.of(); // enough for the threads there now; perf raises its soft limit itself
        }
        String why = !maySetLimits ? "raising it for perf needs CAP_SYS_RESOURCE, which this process lacks (root has it unless a container dropped it)"
                : !prlimit ? "util-linux prlimit (" + PRLIMIT + "), which would raise it for perf, is not installed"
                : "fs.nr_open (" + nrOpen + ") allows no more";
        throw new IOException("perf needs about " + needed + " open files (" + threads + " threads x " + events
                + " events) but the hard open-files limit is " + hard + ", and " + why);
    }

    private static long threads(long pid) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.count();
        }
    }

    private static long nrOpen() {
        try {
            return Long.parseLong(Files.readString(Path.of("/proc/sys/fs/nr_open")).strip());
        } catch (IOException | NumberFormatException e) {
            return 1 << 20; // the kernel's default
        }
    }

    /** Whether CAP_SYS_RESOURCE is in this process's effective set (perf, started by it, inherits it). */
    static boolean maySetLimits() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return new BigInteger(line.substring("CapEff:".length()).strip(), 16).testBit(CAP_SYS_RESOURCE);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // No /proc status: take it as not allowed; the reason names the capability.
        }
        return false;
    }
}
