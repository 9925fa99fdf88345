package io.xferbench.core.protocol;

import io.xferbench.core.metrics.SyscallCounts;

/**
 * The MEASURE_END answer: what the measured process (server or proxy) did between MEASURE_BEGIN and MEASURE_END
 * of one connection. CPU time, context switches and faults are the whole process's ({@code getrusage(RUSAGE_SELF)});
 * syscalls are counted by perf on the process. Windows of different connections are independent and may overlap;
 * {@code overlap} says whether other connections' work fell into this one.
 *
 * @param process             {@code server} or {@code proxy}
 * @param voluntarySwitches   context switches where a thread blocked (rusage)
 * @param involuntarySwitches context switches where a thread was preempted (rusage)
 * @param syscalls            null when not counted; then {@code syscallsUnavailable} says why
 * @param overlap             other connections' work inside the window ({@link WindowOverlap#NONE} when alone)
 * @param threadsStarted      platform threads the process started inside the window
 *                            ({@code ThreadMXBean.getTotalStartedThreadCount} delta; 0 from servers that predate it)
 * @param carrierThreads      the virtual-thread scheduler's carrier threads at the window's end, -1 when the JDK does not
 *                            say (before JDK 24) or the process is older
 * @param threadsPeak         the most threads the process had alive in the window, as the kernel counts them (io-wq
 *                            workers included), sampled at the window's ends and as transfers start and finish; -1 when
 *                            it could not count (no procfs), 0 from a process older than this field
 */
public record MeasurementReport(String process, double cpuUserSeconds, double cpuSystemSeconds, long voluntarySwitches,
                                long involuntarySwitches, long majorFaults, long minorFaults, SyscallCounts syscalls,
                                String syscallsUnavailable, WindowOverlap overlap, long threadsStarted, int carrierThreads,
                                int threadsPeak) {
    public static final String SERVER = "server";
    public static final String PROXY = "proxy";

    public MeasurementReport {
        overlap = overlap == null ? WindowOverlap.NONE : overlap;
    }

    /** This report with {@code threadsStarted} counted over a longer span (a load run's, from its first connection). */
    public MeasurementReport withThreadsStarted(long started) {
        return new MeasurementReport(process, cpuUserSeconds, cpuSystemSeconds, voluntarySwitches, involuntarySwitches,
                majorFaults, minorFaults, syscalls, syscallsUnavailable, overlap, started, carrierThreads, threadsPeak);
    }

    /** Context switches of both kinds (rusage). */
    public long contextSwitches() {
        return voluntarySwitches + involuntarySwitches;
    }
}
