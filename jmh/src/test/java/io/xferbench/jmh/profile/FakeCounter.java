package io.xferbench.jmh.profile;

import io.xferbench.core.metrics.SyscallCounts;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Counts like perf does: only while enabled. The test plays the process making syscalls. */
final class FakeCounter implements SyscallProfiler.Counter {
    private final Map<String, Long> byName = new LinkedHashMap<>();
    private long total;
    private long ctxsw;
    private boolean enabled;
    boolean stopped;
    boolean closed;
    int enables;
    /** Thrown by the next disable(), as when perf has died. */
    IOException failDisable;

    /** {@code n} calls of a syscall perf breaks out by name. */
    void calls(String name, long n) {
        byName.putIfAbsent(name, 0L);
        if (enabled) {
            byName.merge(name, n, Long::sum);
            total += n;
        }
    }

    /** {@code n} calls perf counts only in the total. */
    void unnamedCalls(long n) {
        if (enabled) {
            total += n;
        }
    }

    void switches(long n) {
        if (enabled) {
            ctxsw += n;
        }
    }

    @Override
    public void enable() {
        enabled = true;
        enables++;
    }

    @Override
    public void disable() throws IOException {
        if (failDisable != null) {
            throw failDisable;
        }
        enabled = false;
    }

    @Override
    public SyscallCounts stop() {
        stopped = true;
        return new SyscallCounts(total, byName, 0, ctxsw);
    }

    @Override
    public void close() {
        closed = true;
    }
}
