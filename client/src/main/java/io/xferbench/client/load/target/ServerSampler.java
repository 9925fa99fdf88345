package io.xferbench.client.load.target;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Watches a server's processes during a window: CPU at both ends (all of it, and its JIT compiler threads'), and the
 * peak of live threads sampled every few milliseconds (a thread-per-connection server grows and shrinks within a run;
 * the peak is what it cost).
 */
public final class ServerSampler implements AutoCloseable {
    private static final long PERIOD_MILLIS = 10;

    private final ProcessTree tree;
    private final AtomicInteger peakThreads = new AtomicInteger();
    private final Thread sampler;
    private final double cpuAtStart;
    private final double jitCpuAtStart;
    private volatile boolean running = true;

    public ServerSampler(ProcessTree tree) {
        this.tree = tree;
        this.cpuAtStart = tree.cpuMicros();
        this.jitCpuAtStart = tree.jitCpuMicros();
        peakThreads.set(tree.threads());
        this.sampler = Thread.ofPlatform().name("xferbench-server-sampler").daemon().start(() -> {
            while (running) {
                peakThreads.accumulateAndGet(tree.threads(), Math::max);
                try {
                    Thread.sleep(PERIOD_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** Stops sampling; the figures of the window. */
    public ServerFigures finish() throws InterruptedException {
        running = false;
        sampler.join();
        peakThreads.accumulateAndGet(tree.threads(), Math::max);
        return new ServerFigures(tree.cpuMicros() - cpuAtStart, peakThreads.get(), Math.max(0, tree.jitCpuMicros() - jitCpuAtStart));
    }

    @Override
    public void close() throws InterruptedException {
        if (running) {
            finish();
        }
    }

    /**
     * A server's CPU (all its processes, user + system) and its peak live threads over one window, and how much of
     * that CPU its JIT compiler threads took (at least; 0 for a server that is not a HotSpot JVM): a window that
     * includes compilation measures a server still warming up.
     */
    public record ServerFigures(double cpuMicros, int threadsPeak, double jitCpuMicros) {
        /** The JIT compiler threads' share of the window's CPU, or NaN without CPU. */
        public double jitShare() {
            return cpuMicros > 0 ? jitCpuMicros / cpuMicros : Double.NaN;
        }
    }
}
