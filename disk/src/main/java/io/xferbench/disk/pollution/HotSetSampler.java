package io.xferbench.disk.pollution;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Takes a {@link Sample} of the hot set every {@link #PERIOD_NANOS}: the clients' interval and mincore residency. */
final class HotSetSampler {
    /** 250 ms: fine enough to see a read of a few hundred MiB, coarse enough that mincore costs nothing (ms). */
    static final long PERIOD_NANOS = 250_000_000L;

    private final HotSet hot;
    private final HotSetClients clients;
    private long lastNanos;

    HotSetSampler(HotSet hot, HotSetClients clients) {
        this.hot = hot;
        this.clients = clients;
    }

    /** Starts a new series: what completed before now is dropped. */
    void reset() {
        clients.interval();
        lastNanos = System.nanoTime();
    }

    /** Sleeps to the end of the current period, then samples. */
    Sample next() throws IOException, InterruptedException {
        long wait = lastNanos + PERIOD_NANOS - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        return now();
    }

    /** Samples at once (the period is cut short, e.g. when the big read ends). */
    Sample now() throws IOException {
        HotSetClients.Interval i = clients.interval();
        long end = System.nanoTime();
        Sample s = new Sample(end, (end - lastNanos) / 1e9, hot.residencyPercent(), i.requests(), i.errors(),
                i.latencyNanos());
        lastNanos = end;
        return s;
    }

    /** Samples for {@code nanos}. */
    List<Sample> collect(long nanos) throws IOException, InterruptedException {
        return collectWhile(deadline(nanos));
    }

    /** Samples while the condition holds, at least once. */
    List<Sample> collectWhile(BooleanSupplier more) throws IOException, InterruptedException {
        List<Sample> samples = new ArrayList<>();
        do {
            samples.add(next());
        } while (more.getAsBoolean());
        return samples;
    }

    static BooleanSupplier deadline(long nanos) {
        long end = System.nanoTime() + nanos;
        return () -> System.nanoTime() < end;
    }
}
