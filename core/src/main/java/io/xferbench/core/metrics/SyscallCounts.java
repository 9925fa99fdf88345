package io.xferbench.core.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Syscalls the kernel counted for a process over a window, from perf tracepoints.
 *
 * @param total             every syscall entry (raw_syscalls:sys_enter)
 * @param bySyscall         entries by syscall name (syscalls:sys_enter_NAME) for the names that were asked for
 * @param ioUringSubmissions SQEs submitted (io_uring:io_uring_submit_req): io_uring work that enters no syscall of its own
 * @param contextSwitches   the context-switches software event
 */
public record SyscallCounts(long total, Map<String, Long> bySyscall, long ioUringSubmissions, long contextSwitches) {

    public SyscallCounts {
        bySyscall = Collections.unmodifiableMap(new LinkedHashMap<>(bySyscall));
    }

    /** Syscalls not in {@link #bySyscall()}. */
    public long other() {
        return total - bySyscall.values().stream().mapToLong(Long::longValue).sum();
    }

    public long of(String syscall) {
        return bySyscall.getOrDefault(syscall, 0L);
    }

    /** Only the syscalls that happened, largest first, with "other" last. */
    public Map<String, Long> nonZero() {
        Map<String, Long> out = new LinkedHashMap<>();
        bySyscall.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        if (other() > 0) {
            out.put("other", other());
        }
        return out;
    }
}
