package io.xferbench.disk.pollution;

import io.xferbench.core.read.LatencySink;
import io.xferbench.core.read.ReadOutcome;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The child JVM that reads the big file inside the cgroup (its page cache is charged there, competing with the
 * server's hot set). Prints {@code reading} when it starts reading and {@code pass BYTES NANOS DIGEST} after each
 * whole read of the file, so the parent times the reads themselves, not the JVM's start; then reads the file again
 * while the parent answers {@code again} on stdin (the during window must hold enough hot requests for its p99),
 * and exits on anything else.
 */
public final class BigReader {
    private BigReader() {
    }

    /** Arguments: MODE FILE SIZE BLOCK_SIZE. */
    public static void main(String[] args) throws IOException {
        BigReadMode mode = BigReadMode.byId(args[0]).orElseThrow(() -> new IllegalArgumentException("mode " + args[0]));
        Path file = Path.of(args[1]);
        long size = Long.parseLong(args[2]);
        int blockSize = Integer.parseInt(args[3]);
        ReadSpec spec = new ReadSpec(file, size, ReadPattern.SEQUENTIAL, blockSize, 1, 1, 42);
        if (mode.engine != null) {
            String reason = mode.engine.unsupported(spec);
            if (reason != null) {
                System.out.println("unsupported " + reason);
                return;
            }
        }
        System.out.println("reading");
        BufferedReader parent = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        do {
            long t0 = System.nanoTime();
            ReadOutcome outcome = mode.engine != null ? mode.engine.read(spec, LatencySink.NONE)
                    : DontNeedBehindReader.read(file, size, blockSize);
            long nanos = System.nanoTime() - t0;
            System.out.println("pass " + outcome.bytes() + " " + nanos + " " + outcome.digest());
        } while ("again".equals(parent.readLine()));
    }
}
