package io.xferbench.jmh.profile;

import io.xferbench.core.metrics.SyscallCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Turns what perf counted over a fork's measurement iterations into JMH results, all normalised by the ops
 * JMH ran inside those windows.
 *
 * <ul>
 *   <li>{@code syscalls.total/op}: every syscall entry (raw_syscalls:sys_enter)</li>
 *   <li>{@code syscalls.<name>/op}: each syscall that happened at least once, by name; {@code other} is the
 *       total minus the names perf was asked to break out</li>
 *   <li>{@code io_uring.submissions/op}: io_uring SQEs, work that needs no syscall of its own</li>
 *   <li>{@code ctxsw/op}: context switches of the process</li>
 *   <li>{@code syscalls/MiB}: total per MiB moved, when the benchmark says how many bytes an op moves
 *       (a {@code size} param)</li>
 *   <li>{@code syscalls.total/s}: total per second of measurement, the unit in which the harness floor
 *       ({@code ControlBenchmark}) is comparable across benchmarks</li>
 * </ul>
 */
public final class SyscallResults {
    public static final String TOTAL = "syscalls.total/op";
    public static final String PREFIX = "syscalls.";
    public static final String PER_OP = "/op";
    public static final String IO_URING = "io_uring.submissions/op";
    public static final String CTXSW = "ctxsw/op";
    public static final String PER_MIB = "syscalls/MiB";
    public static final String PER_SECOND = "syscalls.total/s";

    private static final double MIB = 1024.0 * 1024.0;

    private SyscallResults() {
    }

    /** The label of one syscall's per-op result, e.g. {@code syscalls.sendfile64/op}. */
    public static String perOp(String syscall) {
        return PREFIX + syscall + PER_OP;
    }

    /**
     * @param ops        ops JMH ran while counting; nothing is reported for 0
     * @param nanos      time counted
     * @param bytesPerOp bytes one op moves, if known
     */
    public static List<RatioResult> of(SyscallCounts counts, long ops, long nanos, OptionalLong bytesPerOp) {
        List<RatioResult> out = new ArrayList<>();
        if (ops <= 0) {
            return out;
        }
        out.add(new RatioResult(TOTAL, counts.total(), ops, "calls/op"));
        for (Map.Entry<String, Long> e : counts.nonZero().entrySet()) {
            out.add(new RatioResult(perOp(e.getKey()), e.getValue(), ops, "calls/op"));
        }
        out.add(new RatioResult(IO_URING, counts.ioUringSubmissions(), ops, "sqes/op"));
        out.add(new RatioResult(CTXSW, counts.contextSwitches(), ops, "switches/op"));
        if (bytesPerOp.isPresent() && bytesPerOp.getAsLong() > 0) {
            out.add(new RatioResult(PER_MIB, counts.total(), ops * (bytesPerOp.getAsLong() / MIB), "calls/MiB"));
        }
        if (nanos > 0) {
            out.add(new RatioResult(PER_SECOND, counts.total(), nanos / 1e9, "calls/s"));
        }
        return out;
    }
}
