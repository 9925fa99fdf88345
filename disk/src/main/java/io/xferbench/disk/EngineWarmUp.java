package io.xferbench.disk;

import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.ProcessCpu;
import io.xferbench.core.read.ReadEngine;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;

import java.io.IOException;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Runs a Java engine untimed before its row, in the row's own shape (pattern, block size, depth) over the file's
 * first 16 MiB, until the JVM's JIT is quiet: a row measured while HotSpot still compiles, or just after it threw away
 * code compiled for another shape (a sequential row after a random one takes an uncommon trap in the shared read
 * loop), runs partly in the interpreter or in C1's profiling code and charges the compiler threads' CPU to the row; a
 * C program such as fio pays neither. Quiet means {@link #QUIET_WINDOWS} windows in a row of at least
 * {@link #WINDOW_NANOS} each in which the compiler threads took at most one clock tick or {@link #QUIET_SHARE} of the
 * process's CPU, after at least {@link #MIN_READS} reads (or {@link #MIN_READ_BYTES}, for large blocks): code still
 * gathering its profile in C1 compiles nothing until it reaches C2's thresholds. Bounded by {@code max}; a row
 * measured before its JIT was quiet says so.
 */
final class EngineWarmUp {
    static final long SPAN = 16 * Sizes.MiB;
    static final long RANDOM_OPS = 5_000;
    static final long RANDOM_BYTES = 64 * Sizes.MiB;
    static final long WINDOW_NANOS = 250_000_000L;
    static final int QUIET_WINDOWS = 2;
    static final double QUIET_SHARE = 0.02;
    static final long MIN_READS = 20_000;
    static final long MIN_READ_BYTES = 256 * Sizes.MiB;

    /**
     * @param seconds how long the engine ran untimed
     * @param reads   how many blocks it read
     * @param settled whether the JIT was quiet at the end ({@code false}: the row began when {@code max} ran out)
     */
    record Outcome(double seconds, long reads, boolean settled) {
    }

    private final Duration max;
    private final DoubleSupplier processCpuMicros;
    private final DoubleSupplier compilerCpuMicros;
    private final LongSupplier clock;

    /** This JVM's own CPU and compiler threads, on the monotonic clock. */
    EngineWarmUp(Duration max) {
        this(max, () -> ProcessCpu.totalMicros(ProcessHandle.current().pid()),
                () -> ProcessCpu.compilerThreadsMicros(ProcessHandle.current().pid()), System::nanoTime);
    }

    EngineWarmUp(Duration max, DoubleSupplier processCpuMicros, DoubleSupplier compilerCpuMicros, LongSupplier clock) {
        this.max = max;
        this.processCpuMicros = processCpuMicros;
        this.compilerCpuMicros = compilerCpuMicros;
        this.clock = clock;
    }

    /**
     * The untimed reads for {@code row}: its pattern, block size and depth over the file's first 16 MiB (at least a
     * block per thread), a random one up to 5,000 blocks or 64 MiB; on rings set up as the row's are.
     */
    static ReadSpec shapeOf(ReadSpec row) {
        int bs = row.blockSize();
        long span = Math.min(row.span(), Math.max(SPAN, (long) row.concurrency() * bs)) / bs * bs;
        long ops = Math.max(row.concurrency(), Math.min(RANDOM_OPS, RANDOM_BYTES / bs));
        return new ReadSpec(row.file(), span, row.pattern(), bs, row.concurrency(), ops, 7).withRingFlags(row.ringFlags());
    }

    /** Runs {@code engine} on {@code shape} until the JIT is quiet or {@code max} has passed; at least once. */
    Outcome run(ReadEngine engine, ReadSpec shape) throws IOException {
        long minReads = Math.max(1, Math.min(MIN_READS, MIN_READ_BYTES / shape.blockSize()));
        long readsPerRound = shape.pattern() == ReadPattern.SEQUENTIAL ? shape.span() / shape.blockSize()
                : shape.randomOps();
        long start = clock.getAsLong();
        long windowStart = start;
        double cpuAtWindow = processCpuMicros.getAsDouble();
        double jitAtWindow = compilerCpuMicros.getAsDouble();
        int quietInARow = 0;
        long reads = 0;
        while (true) {
            engine.read(shape, new ThreadHistograms()); // the timed row's sink type, so the JIT does not meet a new one
            reads += readsPerRound;
            long now = clock.getAsLong();
            if (now - windowStart >= WINDOW_NANOS) {
                double cpuNow = processCpuMicros.getAsDouble();
                double jitNow = compilerCpuMicros.getAsDouble();
                double cpu = cpuNow - cpuAtWindow;
                double jit = Math.max(0, jitNow - jitAtWindow); // below 0 when a compiler thread exited
                boolean quiet = cpu > 0 && jit <= Math.max(ProcessCpu.MICROS_PER_TICK, QUIET_SHARE * cpu);
                quietInARow = quiet ? quietInARow + 1 : 0;
                windowStart = now;
                cpuAtWindow = cpuNow;
                jitAtWindow = jitNow;
            }
            boolean settled = quietInARow >= QUIET_WINDOWS && reads >= minReads;
            if (settled || now - start >= max.toNanos()) {
                return new Outcome((now - start) / 1e9, reads, settled);
            }
        }
    }
}
