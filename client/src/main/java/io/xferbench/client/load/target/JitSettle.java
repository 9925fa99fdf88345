package io.xferbench.client.load.target;

import io.xferbench.client.load.engine.LoadEngine;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Unmeasured load on a JVM server until its JIT compilers are quiet. A fixed warm-up of a few seconds leaves a fresh
 * server compiling through its first windows (its compiler threads took 20-58 % of its CPU there, docs/load.md), and
 * compilation comes in bursts, so the settle watches one run of the row's own load in slices of {@link #SLICE_NANOS}
 * and ends it once {@link #QUIET_SLICES} slices in a row had the compiler threads under the quiet share of the
 * server's CPU; the run's length is the budget. One run, not a run per slice: each run at 1,000 connections leaves
 * 1,000 client ports in TIME_WAIT, and a dozen of them made the next window's connects crawl.
 */
public final class JitSettle implements LoadEngine.WindowObserver {
    public static final long SLICE_NANOS = 1_000_000_000L;
    public static final int QUIET_SLICES = 3;

    /**
     * @param slices    whole slices watched
     * @param seconds   how long the load ran
     * @param lastShare the compiler threads' share of the server's CPU in the last slice (NaN: no slice, or the server
     *                  used no CPU in it)
     * @param settled   the last {@link #QUIET_SLICES} slices were quiet; false: the budget ran out first
     */
    public record Outcome(int slices, double seconds, double lastShare, boolean settled) {
    }

    private final DoubleSupplier cpuMicros;
    private final DoubleSupplier jitCpuMicros;
    private final double quietShare;
    private final LongSupplier clock;
    private long openedAt;
    private long closedAt;
    private long sliceStart;
    private double cpuAtSliceStart;
    private double jitAtSliceStart;
    private int slices;
    private int quietInARow;
    private double lastShare = Double.NaN;

    /**
     * @param cpuMicros    the server's CPU so far (all its processes, user + system)
     * @param jitCpuMicros its compiler threads' CPU so far
     */
    JitSettle(DoubleSupplier cpuMicros, DoubleSupplier jitCpuMicros, double quietShare, LongSupplier clock) {
        this.cpuMicros = cpuMicros;
        this.jitCpuMicros = jitCpuMicros;
        this.quietShare = quietShare;
        this.clock = clock;
    }

    public static JitSettle of(ProcessTree server, double quietShare) {
        return new JitSettle(server::cpuMicros, server::jitCpuMicros, quietShare, System::nanoTime);
    }

    @Override
    public void opened() {
        openedAt = clock.getAsLong();
        startSlice(openedAt);
    }

    private void startSlice(long now) {
        sliceStart = now;
        cpuAtSliceStart = cpuMicros.getAsDouble();
        jitAtSliceStart = jitCpuMicros.getAsDouble();
    }

    @Override
    public boolean done() {
        long now = clock.getAsLong();
        if (now - sliceStart < SLICE_NANOS) {
            return false;
        }
        double cpu = cpuMicros.getAsDouble() - cpuAtSliceStart;
        double jit = Math.max(0, jitCpuMicros.getAsDouble() - jitAtSliceStart);
        slices++;
        lastShare = cpu > 0 ? jit / cpu : Double.NaN;
        // NaN (no CPU at all) is not quiet: a server that did no work cannot show it has stopped compiling.
        quietInARow = lastShare < quietShare ? quietInARow + 1 : 0;
        startSlice(now);
        return quietInARow >= QUIET_SLICES;
    }

    @Override
    public void closed() {
        closedAt = clock.getAsLong();
    }

    public Outcome outcome() {
        return new Outcome(slices, Math.max(0, closedAt - openedAt) / 1e9, lastShare, quietInARow >= QUIET_SLICES);
    }
}
