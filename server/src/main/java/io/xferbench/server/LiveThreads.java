package io.xferbench.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The "Threads:" line of /proc/self/status, read through one file kept open: each count is a single pread(2) at
 * offset 0 (procfs regenerates the text), so sampling it inside a measurement window adds one syscall per sample.
 */
final class LiveThreads {
    private static final String KEY = "\nThreads:";

    /** Null where there is no /proc/self/status. */
    private final FileChannel status;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(8192);

    private LiveThreads(FileChannel status) {
        this.status = status;
    }

    static LiveThreads open() {
        try {
            return new LiveThreads(FileChannel.open(Path.of("/proc/self/status"), StandardOpenOption.READ));
        } catch (IOException | UnsupportedOperationException e) {
            return new LiveThreads(null);
        }
    }

    /** Threads of the process now, or -1 when unknown. */
    synchronized int count() {
        if (status == null) {
            return -1;
        }
        try {
            buffer.clear();
            status.read(buffer, 0);
            buffer.flip();
            return parse(buffer);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The number after "Threads:" in the status text, or -1 when the line is not there. */
    static int parse(ByteBuffer text) {
        String status = StandardCharsets.US_ASCII.decode(text).toString();
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
}
