package io.xferbench.server.measure;

import io.xferbench.server.request.Refused;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.xferbench.core.metrics.ProcessMeasurement;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.WindowOverlap;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
public final class Measurements implements AutoCloseable {
    static final long THREAD_SAMPLE_NANOS = 10_000_000;
    /**
     * How long a connection holding an open window may wait for its next request. It waits by design, for the end of
     * other connections' run (a load run, a long transfer), so the idle timeout does not apply; a day bounds it, as it
     * bounds a transfer.
     */
    static final Duration LONGEST_WINDOW = Duration.ofDays(1);
    /**
     * Windows that count syscalls at once: each runs a {@code perf stat} process with its own descriptors, and a
     * client opens one per run, so a few cooperating clients fit and a client opening one per connection does not.
     */
    static final int MAX_COUNTING_WINDOWS = 8;

    /** The counter of connections seen after {@link WindowOverlap#MAX_PEERS} peers: counted, but not by peer. */
    private static final long[] UNLISTED = new long[1];

    /** How long a connection may wait for its next request: its idle timeout, or a day while it holds a window. */
    public static Duration requestWait(Duration idleTimeout, boolean windowOpen) {
        return windowOpen && LONGEST_WINDOW.compareTo(idleTimeout) > 0 ? LONGEST_WINDOW : idleTimeout;
    }

    private final String process;
    /**
     * Guards the board. A lock, not a monitor: every request of every connection passes here, and a virtual thread
     * that waited for a monitor is resumed through the JDK's scheduler's external queues, a lock's waiter by the
     * thread that releases it (docs/robustness.md, "The {@code virtual} model at 1,000 connections").
     */
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * Connections with work in flight now, and their peers. Primitive keys, as in each window's {@code seen}: every
     * request passes here, and boxed ids and map nodes were a few allocations per request.
     */
    private final IntObjectHashMap<String> busy = new IntObjectHashMap<>();
    /** A list: iterated on every request, and there are rarely more than one or two. */
    private final List<Window> open = new ArrayList<>();
    private long lastThreadSample = System.nanoTime() - THREAD_SAMPLE_NANOS;

    /** @param process {@link MeasurementReport#SERVER} or {@link MeasurementReport#PROXY} */
    public Measurements(String process) {
        this.process = process;
    }

    /**
     * Opens a window for connection {@code owner}; close it (or {@link Window#end()} it) when that connection ends.
     *
     * @throws Refused BUSY when {@link #MAX_COUNTING_WINDOWS} windows already count syscalls and this one would too
     */
    public Window begin(int owner, boolean countSyscalls) throws IOException {
        // Registered before perf starts counting, so no other connection's work is counted without being named.
        Window w = new Window(owner, countSyscalls);
        w.threadsPeak = ThreadCounts.live(); // outside perf's count, as the sample at the end
        lock.lock();
        try {
            if (countSyscalls && countingWindows() >= MAX_COUNTING_WINDOWS) {
                throw new Refused(Status.BUSY, MAX_COUNTING_WINDOWS + " measurement windows already count syscalls "
                        + "(a perf process each); end one, or begin this one with NO_SYSCALL_COUNT");
            }
            for (IntObjectMap.PrimitiveEntry<String> e : busy.entries()) {
                w.saw(e.key(), e.value());
            }
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
    public void started(int conn, String peer) {
        lock.lock();
        try {
            busy.put(conn, peer);
            for (int i = 0; i < open.size(); i++) {
                open.get(i).saw(conn, peer);
            }
            sampleThreads();
        } finally {
            lock.unlock();
        }
    }

    /** Connection {@code conn}'s transfer or relay is over. */
    public void finished(int conn) {
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
        for (int i = 0; i < open.size(); i++) {
            open.get(i).sawThreads(live);
        }
    }

    /** Called with the board's lock held. */
    private int countingWindows() {
        int n = 0;
        for (int i = 0; i < open.size(); i++) {
            if (open.get(i).countsSyscalls) {
                n++;
            }
        }
        return n;
    }

    /** Windows open now. */
    public int openWindows() {
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
        List<Window> left;
        lock.lock();
        try {
            left = List.copyOf(open);
        } finally {
            lock.unlock();
        }
        left.forEach(Window::close);
    }

    /** One connection's window. */
    public final class Window implements AutoCloseable {
        private final int owner;
        private final boolean countsSyscalls;
        /** Set once, right after the window is registered. */
        private ProcessMeasurement measurement;
        private long threadsAtBegin;
        /** Guarded by the board's lock once the window is registered. */
        private int threadsPeak = -1;
        /** Requests per peer, for at most {@link WindowOverlap#MAX_PEERS} peers. */
        private final Map<String, long[]> peers = new HashMap<>();
        /** Every other connection seen: its peer's counter in {@link #peers}, or {@link #UNLISTED} past the bound. */
        private final IntObjectHashMap<long[]> seen = new IntObjectHashMap<>();
        private long requests;
        private boolean truncated;
        private boolean closed;

        private Window(int owner, boolean countsSyscalls) {
            this.owner = owner;
            this.countsSyscalls = countsSyscalls;
        }

        /** Called with the board's lock held. */
        private void saw(int conn, String peer) {
            if (conn == owner) {
                return;
            }
            requests++;
            long[] counter = seen.get(conn);
            if (counter == null) {
                if (peers.size() < WindowOverlap.MAX_PEERS || peers.containsKey(peer)) {
                    counter = peers.computeIfAbsent(peer, p -> new long[1]);
                } else {
                    counter = UNLISTED;
                    truncated = true;
                }
                seen.put(conn, counter);
            }
            if (counter != UNLISTED) {
                counter[0]++;
            }
        }

        private void sawThreads(int live) {
            threadsPeak = Math.max(threadsPeak, live);
        }

        private Map<String, Long> requestsByPeer() {
            Map<String, Long> byPeer = new HashMap<>();
            peers.forEach((peer, n) -> byPeer.put(peer, n[0]));
            return byPeer;
        }

        /** Ends the window and releases its counter. */
        public MeasurementReport end() throws IOException {
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
                    overlap = seen.isEmpty() ? WindowOverlap.NONE
                            : new WindowOverlap(seen.size(), requests, requestsByPeer(), !truncated);
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
