package io.xferbench.client.load;

import java.io.IOException;
import java.time.Duration;

/**
 * Unmeasured load on a JVM server until its JIT compilers are quiet. A fixed warm-up of a few seconds leaves a fresh
 * server compiling through its first windows (its compiler threads took 20-58 % of its CPU there, docs/load.md), and
 * compilation comes in bursts, so the settle runs short slices of the row's own load and stops once
 * {@link #QUIET_SLICES} slices in a row had the compiler threads under the quiet share of the server's CPU, or when
 * its budget is spent.
 */
final class JitSettle {
    static final Duration SLICE = Duration.ofSeconds(1);
    static final int QUIET_SLICES = 3;

    /** One slice of unmeasured load; the server's figures over it, or null when it could not run (settling stops). */
    interface Slice {
        ServerSampler.ServerFigures run(Duration length) throws IOException, InterruptedException;
    }

    /**
     * @param slices    slices run
     * @param seconds   wall-clock time they took, connections' set-up included
     * @param lastShare the compiler threads' share of the server's CPU in the last slice (NaN: the server used none)
     * @param settled   the last {@link #QUIET_SLICES} slices were quiet; false: the budget ran out first
     */
    record Outcome(int slices, double seconds, double lastShare, boolean settled) {
    }

    private JitSettle() {
    }

    /** A slice's watch: the server's CPU and its compiler threads' over the slice's window, nothing else. */
    static final class SliceWatch implements LoadEngine.WindowObserver {
        private final ProcessTree processes;
        private ServerSampler sampler;
        private ServerSampler.ServerFigures figures;

        SliceWatch(ProcessTree processes) {
            this.processes = processes;
        }

        @Override
        public void opened() {
            sampler = new ServerSampler(processes);
        }

        @Override
        public void closed() {
            if (sampler == null) {
                return;
            }
            try {
                figures = sampler.finish();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Null when the slice's window never opened. */
        ServerSampler.ServerFigures figures() {
            return figures;
        }
    }

    /** Runs slices until quiet or until {@code budget} has passed (the last slice may end after it). */
    static Outcome settle(Slice slice, Duration budget, double quietShare) throws IOException, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + budget.toNanos();
        int slices = 0;
        int quietInARow = 0;
        double share;
        do {
            ServerSampler.ServerFigures figures = slice.run(SLICE);
            slices++;
            if (figures == null) {
                return new Outcome(slices, (System.nanoTime() - start) / 1e9, Double.NaN, false);
            }
            share = figures.jitShare();
            // NaN (no CPU at all) is not quiet: a server that did no work cannot show it has stopped compiling.
            quietInARow = share < quietShare ? quietInARow + 1 : 0;
        } while (quietInARow < QUIET_SLICES && System.nanoTime() < deadline);
        return new Outcome(slices, (System.nanoTime() - start) / 1e9, share, quietInARow >= QUIET_SLICES);
    }
}
