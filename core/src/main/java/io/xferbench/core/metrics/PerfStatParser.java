package io.xferbench.core.metrics;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses {@code perf stat -x,} output: one line per event, {@code value,unit,event,run-time,percent,...}.
 * Comment lines ({@code #}), blank lines and perf's "Events enabled/disabled" notes are skipped.
 */
public final class PerfStatParser {
    static final String TOTAL_EVENT = "raw_syscalls:sys_enter";
    static final String SYSCALL_PREFIX = "syscalls:sys_enter_";
    static final String IO_URING_SUBMIT_EVENT = "io_uring:io_uring_submit_req";
    static final String CONTEXT_SWITCH_EVENT = "context-switches";

    private PerfStatParser() {
    }

    public static SyscallCounts parse(String output) throws IOException {
        Long total = null;
        long uring = 0;
        long switches = 0;
        Map<String, Long> bySyscall = new LinkedHashMap<>();
        for (String line : output.split("\\R")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || !l.contains(",")) {
                continue;
            }
            String[] f = l.split(",", -1);
            if (f.length < 3) {
                continue;
            }
            String event = f[2];
            long value = value(f[0], event);
            if (event.equals(TOTAL_EVENT)) {
                total = value;
            } else if (event.startsWith(SYSCALL_PREFIX)) {
                bySyscall.put(event.substring(SYSCALL_PREFIX.length()), value);
            } else if (event.equals(IO_URING_SUBMIT_EVENT)) {
                uring = value;
            } else if (event.equals(CONTEXT_SWITCH_EVENT) || event.equals("cs")) {
                switches = value;
            }
        }
        if (total == null) {
            throw new IOException("perf output has no " + TOTAL_EVENT + " line:\n" + output);
        }
        return new SyscallCounts(total, bySyscall, uring, switches);
    }

    private static long value(String field, String event) throws IOException {
        if (field.startsWith("<not counted>")) {
            return 0;
        }
        if (field.startsWith("<not supported>")) {
            throw new IOException("perf cannot count " + event + " here (<not supported>)");
        }
        try {
            return Long.parseLong(field.strip());
        } catch (NumberFormatException e) {
            throw new IOException("unexpected perf value '" + field + "' for " + event);
        }
    }
}
