package io.xferbench.jmh.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * CPU per GiB moved, over a fork's measurement iterations, for benchmarks that say how many bytes an op moves:
 *
 * <ul>
 *   <li>{@code cpu.ms/GiB}: the whole process's CPU (user + system), an SQPOLL thread's included;</li>
 *   <li>{@code cpu.sqpoll.ms/GiB}: the SQPOLL threads' share of it, when the process has one: a ring that submits
 *       without syscalls pays for it with a kernel thread that polls, and this shows what that thread burns.</li>
 * </ul>
 */
public final class CpuResults {
    public static final String PER_GIB = "cpu.ms/GiB";
    public static final String SQPOLL_PER_GIB = "cpu.sqpoll.ms/GiB";
    private static final double GIB = 1024.0 * 1024.0 * 1024.0;

    private CpuResults() {
    }

    static List<RatioResult> of(ProcessCpu.Usage used, long ops, OptionalLong bytesPerOp) {
        List<RatioResult> out = new ArrayList<>();
        if (ops <= 0 || bytesPerOp.isEmpty() || bytesPerOp.getAsLong() <= 0) {
            return out;
        }
        double gib = ops * (bytesPerOp.getAsLong() / GIB);
        out.add(new RatioResult(PER_GIB, used.processNanos() / 1e6, gib, "ms/GiB"));
        if (used.sqPollThreads() > 0) {
            out.add(new RatioResult(SQPOLL_PER_GIB, used.sqPollNanos() / 1e6, gib, "ms/GiB"));
        }
        return out;
    }
}
