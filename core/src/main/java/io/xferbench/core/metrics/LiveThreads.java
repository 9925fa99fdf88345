package io.xferbench.core.metrics;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Threads of a process alive now, as the kernel counts them: the "Threads:" line of /proc/PID/status, so threads the
 * JVM does not know (io_uring's io-wq workers, another program's) count too. The file stays open: each count is a
 * single pread(2) at offset 0 (procfs regenerates the text), so sampling inside a measurement window adds one syscall
 * per sample.
 */
public final class LiveThreads implements AutoCloseable {
    private static final String KEY = "\nThreads:";
    /** A status text is about 1.5 KiB; the Threads line comes in its first half. */
    private static final int STATUS_BYTES = 8192;

    /** Null where the status file could not be opened (no procfs, or the process is gone). */
    private final FileChannel status;
    /** Heap, not direct: {@link #countOf} makes one per reading, and the JDK reads through its cached direct buffer. */
    private final ByteBuffer buffer = ByteBuffer.allocate(STATUS_BYTES);

    private LiveThreads(FileChannel status) {
        this.status = status;
    }

    /** This process's count, kept open for repeated samples. */
    public static LiveThreads self() {
        return open(Path.of("/proc/self/status"));
    }

    /** Another process's count, kept open for repeated samples; -1 from {@link #count} once that process is gone. */
    public static LiveThreads of(long pid) {
        return open(Path.of("/proc", Long.toString(pid), "status"));
    }

    /** One reading of a process's threads, or -1 when it is gone (or there is no procfs). */
    public static int countOf(long pid) {
        try (LiveThreads threads = of(pid)) {
            return threads.count();
        }
    }

    private static LiveThreads open(Path statusFile) {
        try {
            return new LiveThreads(FileChannel.open(statusFile, StandardOpenOption.READ));
        } catch (IOException | UnsupportedOperationException e) {
            return new LiveThreads(null);
        }
    }

    /** Threads of the process now, or -1 when unknown. */
    public synchronized int count() {
        if (status == null) {
            return -1;
        }
        try {
            buffer.clear();
            status.read(buffer, 0);
            buffer.flip();
            return parse(StandardCharsets.US_ASCII.decode(buffer));
        } catch (IOException e) {
            return -1; // ESRCH: the process exited after the open
        }
    }

    /** The number after "Threads:" in a status text, or -1 when the line is not there. */
    static int parse(CharSequence text) {
        String status = text.toString();
        int at = status.indexOf(KEY);
        if (at < 0) {
            return -1;
        }
        int lineEnd = status.indexOf('\n', at + KEY.length());
        try {
            return Integer.parseInt(status.substring(at + KEY.length(), lineEnd < 0 ? status.length() : lineEnd).strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public synchronized void close() {
        if (status != null) {
            try {
                status.close();
            } catch (IOException e) {
                // a read-only procfs file: nothing was written that a failed close could lose
            }
        }
    }
}
