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
    private static final byte[] KEY = "\nThreads:".getBytes(StandardCharsets.US_ASCII);

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
        int limit = text.limit();
        outer:
        for (int i = 0; i + KEY.length <= limit; i++) {
            for (int k = 0; k < KEY.length; k++) {
                if (text.get(i + k) != KEY[k]) {
                    continue outer;
                }
            }
            int j = i + KEY.length;
            while (j < limit && (text.get(j) == ' ' || text.get(j) == '\t')) {
                j++;
            }
            int n = 0;
            int digits = 0;
            while (j < limit && text.get(j) >= '0' && text.get(j) <= '9') {
                n = n * 10 + text.get(j++) - '0';
                digits++;
            }
            return digits > 0 ? n : -1;
        }
        return -1;
    }
}
