package io.xferbench.disk;

import io.xferbench.core.metrics.PerfStatParser;
import io.xferbench.core.metrics.PerfSyscallCounter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Syscalls of a row, counted by the kernel (perf, raw_syscalls:sys_enter): for a Java row, this JVM while the
 * engine reads (every thread, so JIT and GC calls in the window count too); for fio, the whole fio process, whose
 * setup (a few thousand calls) is spread over its ops. Where perf cannot count, the column is empty, never guessed.
 */
final class SyscallTally {
    private final PerfSyscallCounter counter;
    private long total = -1;

    private SyscallTally(PerfSyscallCounter counter) {
        this.counter = counter;
    }

    /** Attached to this JVM with counting paused; a tally that counts nothing where perf is unavailable. */
    static SyscallTally ofThisProcess() {
        if (!PerfSyscallCounter.availability().isAvailable()) {
            return new SyscallTally(null);
        }
        try {
            PerfSyscallCounter c = PerfSyscallCounter.attach(ProcessHandle.current().pid(), List.of());
            c.awaitAttached();
            return new SyscallTally(c);
        } catch (IOException e) {
            return new SyscallTally(null);
        }
    }

    void start() throws IOException {
        if (counter != null) {
            counter.enable();
        }
    }

    /** Stops counting and keeps the total. */
    void pause() throws IOException {
        if (counter != null) {
            try {
                counter.disable();
                total = counter.stop().total();
            } finally {
                counter.close();
            }
        }
    }

    /** Calls per op, or null when nothing was counted. */
    Double perOp(long ops) {
        return total < 0 ? null : total / (double) Math.max(1, ops);
    }

    /** {@code command} run under {@code perf stat} (counts on stderr), or as is where perf cannot count. */
    static List<String> wrapped(List<String> command) {
        if (!PerfSyscallCounter.availability().isAvailable()) {
            return command;
        }
        List<String> cmd = new ArrayList<>(List.of("perf", "stat", "-x,", "--no-big-num", "-e", "raw_syscalls:sys_enter", "--"));
        cmd.addAll(command);
        return cmd;
    }

    /** The total perf printed on stderr for a {@link #wrapped} command, or null. */
    static Long total(String stderr) {
        try {
            return stderr.contains("raw_syscalls:sys_enter") ? PerfStatParser.parse(stderr).total() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
