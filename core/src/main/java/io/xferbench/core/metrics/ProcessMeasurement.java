package io.xferbench.core.metrics;

import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.ResourceUsage;
import java.io.IOException;

/**
 * CPU time (getrusage, all threads) and kernel-counted syscalls of this process over a window. Syscalls are
 * optional: where perf cannot count, the window still measures CPU and says why syscalls are missing.
 */
public final class ProcessMeasurement implements AutoCloseable {
    private final ResourceUsage start;
    private final PerfSyscallCounter perf;
    private final String syscallsUnavailable;

    private ProcessMeasurement(ResourceUsage start, PerfSyscallCounter perf, String syscallsUnavailable) {
        this.start = start;
        this.perf = perf;
        this.syscallsUnavailable = syscallsUnavailable;
    }

    public static ProcessMeasurement begin(boolean countSyscalls) throws NativeException {
        PerfSyscallCounter perf = null;
        String reason = countSyscalls ? null : "syscall counting not requested";
        if (countSyscalls) {
            try {
                perf = PerfSyscallCounter.attach(ProcessHandle.current().pid());
                perf.enable();
            } catch (IOException e) {
                if (perf != null) {
                    perf.close();
                    perf = null;
                }
                reason = e.getMessage();
            }
        }
        // rusage last, so perf's start-up is not charged to the window.
        return new ProcessMeasurement(ResourceUsage.process(), perf, reason);
    }

    /** Ends the window. */
    public Result end() throws IOException {
        ResourceUsage used = ResourceUsage.process().minus(start);
        SyscallCounts counts = null;
        String reason = syscallsUnavailable;
        if (perf != null) {
            try {
                perf.disable();
                counts = perf.stop();
            } catch (IOException e) {
                reason = "perf failed: " + e.getMessage();
            }
        }
        return new Result(used, counts, reason);
    }

    @Override
    public void close() {
        if (perf != null) {
            perf.close();
        }
    }

    /** @param syscalls null when not counted; then {@code syscallsUnavailable} says why */
    public record Result(ResourceUsage usage, SyscallCounts syscalls, String syscallsUnavailable) {
    }
}
