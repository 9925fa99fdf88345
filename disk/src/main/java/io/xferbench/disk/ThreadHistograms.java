package io.xferbench.disk;

import io.xferbench.core.read.LatencySink;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A row's latency histogram, kept per reading thread: each {@link #forThread()} sink is a plain histogram that only
 * its thread writes, so 32 threads recording side by side touch no shared cache line per read (one shared
 * {@link ConcurrentHistogram} makes every record increment its phaser's shared epoch counters and the shared counts
 * array atomically). Engines that record from one loop or a pool's completion handlers use {@link #record}, a
 * concurrent histogram. {@link #merged()} adds everything up once the engine's read has returned (its threads were
 * joined, so their writes are visible).
 */
final class ThreadHistograms implements LatencySink {
    private static final int DIGITS = 3;

    private final ConcurrentHistogram shared = new ConcurrentHistogram(DIGITS);
    private final Queue<Histogram> perThread = new ConcurrentLinkedQueue<>();

    @Override
    public void record(long nanos) {
        shared.recordValue(nanos);
    }

    @Override
    public LatencySink forThread() {
        Histogram mine = new Histogram(DIGITS);
        perThread.add(mine);
        return mine::recordValue;
    }

    Histogram merged() {
        Histogram all = new Histogram(DIGITS);
        all.add(shared);
        perThread.forEach(all::add);
        return all;
    }
}
