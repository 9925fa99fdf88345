package io.xferbench.client.load.engine;

import com.sun.management.OperatingSystemMXBean;
import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.MethodsRun;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Runs one {@link LoadPlan}: spreads its connections over event-loop workers, then merges what they saw. */
public final class LoadEngine {
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private LoadEngine() {
    }

    /** Told, on the engine's thread, when the measured window opens and closes (e.g. to sample a server). */
    public interface WindowObserver {
        WindowObserver NONE = new WindowObserver() {
        };

        /** Before the run's connections open: slow set-up belongs here, so that {@link #opened} is quick. */
        default void preparing() {
        }

        default void opened() {
        }

        /**
         * The window opened {@code lateNanos} after its time, more than a twentieth of a timed window (100 ms of one
         * bounded by count): an observer whose figures cover the window from {@code opened} on says what that costs
         * them.
         */
        default void openedLate(long lateNanos) {
        }

        /**
         * Asked about every 100 ms while a timed window is open: true ends it now (a warm-up that has seen what it
         * waited for). The run's figures then cover the window up to that moment.
         */
        default boolean done() {
            return false;
        }

        default void closed() {
        }
    }

    public static LoadResult run(LoadPlan plan, Exchange exchange) throws InterruptedException {
        return run(plan, Workload.repeating(exchange), WindowObserver.NONE);
    }

    public static LoadResult run(LoadPlan plan, Exchange exchange, WindowObserver observer) throws InterruptedException {
        return run(plan, Workload.repeating(exchange), observer);
    }

    public static LoadResult run(LoadPlan plan, Workload workload) throws InterruptedException {
        return run(plan, workload, WindowObserver.NONE);
    }

    public static LoadResult run(LoadPlan plan, Workload workload, WindowObserver observer) throws InterruptedException {
        int threads = plan.effectiveThreads();
        List<List<Integer>> shares = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            shares.add(new ArrayList<>());
        }
        for (int i = 0; i < plan.connections(); i++) {
            shares.get(i % threads).add(i);
        }
        // Set-up first, outside the run's clock: on a busy machine moving a server into a cgroup and starting perf can
        // take longer than the warm-up, and a window opened late is counted for the server over too short a span.
        try {
            observer.preparing();
        } catch (RuntimeException | Error e) {
            observer.closed(); // it may have half set up (a cgroup made, perf not yet started)
            throw e;
        }
        LoadWindow window = new LoadWindow(plan, System.nanoTime());
        List<LoadWorker> workers = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            LoadWorker w = new LoadWorker(plan, window, workload, shares.get(t));
            workers.add(w);
            running.add(Thread.ofPlatform().name("xferbench-load-" + t).daemon().start(w));
        }
        long cpuAtStart;
        long cpuAtEnd;
        // closed() runs on every path: an observer may have moved the server into a cgroup or started perf.
        try {
            sleepUntil(window.measureFromNanos, running, WindowObserver.NONE);
            cpuAtStart = OS.getProcessCpuTime();
            observer.opened();
            long late = System.nanoTime() - window.measureFromNanos;
            long allowed = plan.requests() == 0 ? plan.duration().toNanos() / 20 : 100_000_000L;
            if (late > allowed) {
                observer.openedLate(late);
            }
            if (plan.requests() == 0) {
                if (sleepUntil(window.measureUntilNanos(), running, observer)) {
                    window.endNow(System.nanoTime());
                }
            } else {
                joinAll(running);
            }
            cpuAtEnd = OS.getProcessCpuTime();
        } finally {
            observer.closed();
        }
        joinAll(running);
        return merge(plan, window, workers, cpuAtEnd - cpuAtStart);
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            t.join();
        }
    }

    /**
     * The calling thread sleeps until {@code nanos}, until every worker has ended, or until {@code observer} is done.
     *
     * @return whether the observer ended it
     */
    private static boolean sleepUntil(long nanos, List<Thread> running, WindowObserver observer) throws InterruptedException {
        long wait;
        while ((wait = nanos - System.nanoTime()) > 0 && running.stream().anyMatch(Thread::isAlive)) {
            if (observer.done()) {
                return true;
            }
            Thread.sleep(Math.max(1, Math.min(100, wait / 1_000_000)));
        }
        return false;
    }

    private static LoadResult merge(LoadPlan plan, LoadWindow window, List<LoadWorker> workers, long cpuNanos) {
        Histogram latency = new Histogram(3);
        Map<String, Long> errors = new TreeMap<>();
        UnmeasuredErrors unmeasured = UnmeasuredErrors.NONE;
        Map<String, LoadResult.OpCounts> operations = new TreeMap<>();
        MethodsRun methodsRun = MethodsRun.NONE;
        long ok = 0;
        long bytes = 0;
        long unfinished = 0;
        long last = Long.MIN_VALUE;
        double busiest = 0;
        double windowNanos = plan.requests() > 0 ? 0 : window.measureUntilNanos() - window.measureFromNanos;
        for (LoadWorker w : workers) {
            WorkerTally t = w.tally();
            latency.add(t.latencyNanos);
            t.errors.forEach((k, v) -> errors.merge(k, v, Long::sum));
            unmeasured = unmeasured.plus(new UnmeasuredErrors(t.warmupErrors, t.drainErrors));
            t.operations.forEach((k, v) -> operations.merge(k, v, LoadResult.OpCounts::plus));
            methodsRun = methodsRun.plus(MethodsRun.of(t.methodsRun));
            ok += t.ok;
            bytes += t.bodyBytes;
            unfinished += t.unfinished;
            last = Math.max(last, t.lastCompletionNanos);
        }
        if (plan.requests() > 0) {
            windowNanos = last == Long.MIN_VALUE ? 0 : last - window.measureFromNanos;
        }
        for (LoadWorker w : workers) {
            busiest = Math.max(busiest, windowNanos > 0 ? w.tally().cpuNanos() / windowNanos : 0);
        }
        long completed = ok + errors.values().stream().mapToLong(Long::longValue).sum();
        double seconds = windowNanos / 1e9;
        return new LoadResult(plan.connections(), plan.effectiveThreads(), plan.ratePerSecond(), ok, errors, unfinished,
                seconds, seconds > 0 ? ok / seconds : 0, seconds > 0 ? bytes / seconds / (1 << 20) : 0,
                new LoadResult.LatencySummary(ms(latency, 50), ms(latency, 90), ms(latency, 99), ms(latency, 99.9),
                        latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() / 1e6),
                completed > 0 ? cpuNanos / 1e3 / completed : 0, Math.min(1.0, busiest), operations, unmeasured, methodsRun);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e6;
    }
}
