package io.xferbench.server;

import io.xferbench.core.metrics.ProcessMeasurement;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.WindowOverlap;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The measurement windows of one process (server or proxy) and the work its connections do. A window belongs to
 * the connection that opened it (MEASURE_BEGIN .. MEASURE_END); windows of different connections overlap freely,
 * each with its own CPU snapshot and its own perf counter. Every window notes the work of other connections that
 * overlaps it (a transfer in flight when it begins, or started while it is open), so a report can say that its
 * process-wide numbers include someone else's work.
 *
 * <p>Each window also keeps the peak of the process's live threads ({@link ThreadCounts#live()}), sampled when it
 * begins and ends and whenever a transfer starts or finishes while a window is open, at most once per
 * {@link #THREAD_SAMPLE_NANOS}: one pread(2) per sample, so a window of thousands of tiny requests gains at most
 * about 100 syscalls a second. Threads that live and die between two samples are missed; io-wq workers idle for
 * seconds before they exit, so they are not.
 */
final class Measurements implements AutoCloseable {
    static final long THREAD_SAMPLE_NANOS = 10_000_000;

    private final String process;
    /**
     * Guards the board. A lock, not a monitor: every request of every connection passes here, and a virtual thread
     * that waited for a monitor is resumed through the JDK's scheduler's external queues, a lock's waiter by the
     * thread that releases it (docs/robustness.md, "The {@code virtual} model at 1,000 connections").
     */
    private final ReentrantLock lock = new ReentrantLock();
    /** Connections with work in flight now, and their peers. */
    private final Map<Integer, String> busy = new HashMap<>();
    private final Set<Window> open = new HashSet<>();
    private long lastThreadSample = System.nanoTime() - THREAD_SAMPLE_NANOS;

    /** @param process {@link MeasurementReport#SERVER} or {@link MeasurementReport#PROXY} */
    Measurements(String process) {
        this.process = process;
    }

    /** Opens a window for connection {@code owner}; close it (or {@link Window#end()} it) when that connection ends. */
    Window begin(int owner, boolean countSyscalls) throws IOException {
        // Registered before perf starts counting, so no other connection's work is counted without being named.
        Window w = new Window(owner);
        w.threadsPeak = ThreadCounts.live(); // outside perf's count, as the sample at the end
        lock.lock();
        try {
            busy.forEach(w::saw);
            open.add(w);
        } finally {
            lock.unlock();
        }
        try {
            w.threadsAtBegin = ThreadCounts.started();
            w.measurement = ProcessMeasurement.begin(countSyscalls);
        } catch (IOException | RuntimeException e) {
            forget(w);
            throw e;
        }
        return w;
    }

    /** Connection {@code conn} (remote address {@code peer}) starts a transfer or a relay. */
    void started(int conn, String peer) {
        lock.lock();
        try {
            busy.put(conn, peer);
            for (Window w : open) {
                w.saw(conn, peer);
            }
            sampleThreads();
        } finally {
            lock.unlock();
        }
    }

    /** Connection {@code conn}'s transfer or relay is over. */
    void finished(int conn) {
        lock.lock();
        try {
            busy.remove(conn);
            sampleThreads();
        } finally {
            lock.unlock();
        }
    }

    /** The live threads into every open window's peak, unless sampled less than THREAD_SAMPLE_NANOS ago. */
    private void sampleThreads() {
        long now = System.nanoTime();
        if (open.isEmpty() || now - lastThreadSample < THREAD_SAMPLE_NANOS) {
            return;
        }
        lastThreadSample = now;
        int live = ThreadCounts.live();
        for (Window w : open) {
            w.sawThreads(live);
        }
    }

    /** Windows open now. */
    int openWindows() {
        lock.lock();
        try {
            return open.size();
        } finally {
            lock.unlock();
        }
    }

    private void forget(Window w) {
        lock.lock();
        try {
            open.remove(w);
        } finally {
            lock.unlock();
        }
    }

    /** Closes every window left open (process shutdown). */
    @Override
    public void close() {
        Set<Window> left;
        lock.lock();
        try {
            left = Set.copyOf(open);
        } finally {
            lock.unlock();
        }
        left.forEach(Window::close);
    }

    /** One connection's window. */
    final class Window implements AutoCloseable {
        private final int owner;
        /** Set once, right after the window is registered. */
        private ProcessMeasurement measurement;
        private long threadsAtBegin;
        /** Guarded by the board's lock once the window is registered. */
        private int threadsPeak = -1;
        private final Map<String, Long> peers = new HashMap<>();
        private final Set<Integer> others = new HashSet<>();
        private final Set<Integer> listed = new HashSet<>();
        private long requests;
        private boolean truncated;
        private boolean closed;

        private Window(int owner) {
            this.owner = owner;
        }

        /** Called with the board's lock held. */
        private void saw(int conn, String peer) {
            if (conn == owner) {
                return;
            }
            requests++;
            if (others.add(conn)) {
                if (peers.size() < WindowOverlap.MAX_PEERS || peers.containsKey(peer)) {
                    listed.add(conn);
                } else {
                    truncated = true;
                }
            }
            if (listed.contains(conn)) {
                peers.merge(peer, 1L, Long::sum);
            }
        }

        private void sawThreads(int live) {
            threadsPeak = Math.max(threadsPeak, live);
        }

        /** Ends the window and releases its counter. */
        MeasurementReport end() throws IOException {
            try {
                ProcessMeasurement.Result r = measurement.end();
                int live = ThreadCounts.live();
                WindowOverlap overlap;
                int peak;
                lock.lock();
                try {
                    sawThreads(live);
                    peak = threadsPeak;
                    open.remove(this);
                    overlap = others.isEmpty() ? WindowOverlap.NONE
                            : new WindowOverlap(others.size(), requests, peers, !truncated);
                } finally {
                    lock.unlock();
                }
                return new MeasurementReport(process, r.usage().userSeconds(), r.usage().systemSeconds(),
                        r.usage().voluntarySwitches(), r.usage().involuntarySwitches(), r.usage().majorFaults(),
                        r.usage().minorFaults(), r.syscalls(), r.syscalls() == null ? r.syscallsUnavailable() : null, overlap,
                        ThreadCounts.started() - threadsAtBegin, ThreadCounts.carriers(), peak);
            } finally {
                close();
            }
        }

        /** Releases the window without a report (its connection ended); idempotent. */
        @Override
        public void close() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            forget(this);
            if (measurement != null) {
                measurement.close();
            }
        }
    }
}
