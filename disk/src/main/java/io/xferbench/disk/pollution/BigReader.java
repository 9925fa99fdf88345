package io.xferbench.disk.pollution;

import io.xferbench.core.read.LatencySink;
import io.xferbench.core.read.ReadOutcome;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The child JVM that reads the big file inside the cgroup (its page cache is charged there, competing with the
 * server's hot set). Prints {@code reading} when it starts reading and {@code done BYTES NANOS DIGEST} at the end,
 * so the parent times the read itself, not the JVM's start.
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
        long t0 = System.nanoTime();
        ReadOutcome outcome = mode.engine != null ? mode.engine.read(spec, LatencySink.NONE)
                : DontNeedBehindReader.read(file, size, blockSize);
        long nanos = System.nanoTime() - t0;
        System.out.println("done " + outcome.bytes() + " " + nanos + " " + outcome.digest());
    }
}
