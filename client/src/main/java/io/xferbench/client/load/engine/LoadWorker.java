package io.xferbench.client.load.engine;

import io.xferbench.client.load.exchange.ExchangeOutcome;
import io.xferbench.client.load.exchange.LoadProtocolException;
import io.xferbench.client.load.exchange.ResponseParser;
import io.xferbench.core.net.NoAnswerException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;

/**
 * One event-loop thread driving a share of the run's connections through one selector: no thread per
 * connection, no barrier between requests. Each connection sends its next request as soon as its last one
 * completed (closed loop) or at its next intended start (open loop), whichever the plan says. A request none of whose
 * bytes moved for the plan's answer timeout is counted as {@link #TIMEOUT} and its connection replaced (a late answer
 * must not be read as the next request's); the selector's wait ends at the next such deadline, no timer thread.
 */
final class LoadWorker implements Runnable {
    private static final int READ_BUFFER_BYTES = 256 * 1024;
    private static final long RECONNECT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The error a request is counted under when its answer did not come (or stopped) within the answer timeout. */
    static final String TIMEOUT = "TIMEOUT";

    private final LoadPlan plan;
    private final LoadWindow window;
    private final Workload workload;
    private final List<Conn> connections = new ArrayList<>();
    private final PriorityQueue<Conn> waiting = new PriorityQueue<>(Comparator.comparingLong(c -> c.wakeAt));
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    private final long intervalNanos;
    private final WorkerTally tally = new WorkerTally();
    private final RequestDeadlines<Conn> deadlines;
    private Selector selector;
    private int inFlight;

    /**
     * @param indices which of the run's connections this worker drives (their index sets the open-loop phase)
     */
    LoadWorker(LoadPlan plan, LoadWindow window, Workload workload, List<Integer> indices) {
        this.plan = plan;
        this.window = window;
        this.workload = workload;
        this.intervalNanos = plan.openLoop() ? Math.round(plan.connections() * 1e9 / plan.ratePerSecond()) : 0;
        this.deadlines = new RequestDeadlines<>(plan.answerTimeout());
        for (int index : indices) {
            Conn c = new Conn(workload.script(index));
            c.nextIntended = window.startNanos + (plan.openLoop() ? Math.round(index * 1e9 / plan.ratePerSecond()) : 0);
            connections.add(c);
        }
    }

    WorkerTally tally() {
        return tally;
    }

    @Override
    public void run() {
        try (Selector s = Selector.open()) {
            selector = s;
            for (Conn c : connections) {
                connect(c, System.nanoTime());
            }
            loop();
        } catch (IOException | RuntimeException e) {
            tally.error("client: " + e);
        } finally {
            for (Conn c : connections) {
                c.closeQuietly();
            }
            tally.cpuEnd(THREADS.getCurrentThreadCpuTime());
        }
    }

    private void loop() throws IOException {
        long drainDeadline = Long.MAX_VALUE;
        while (true) {
            long now = System.nanoTime();
            if (!tally.cpuStarted() && now >= window.measureFromNanos) {
                tally.cpuStart(THREADS.getCurrentThreadCpuTime());
            }
            for (Conn late; (late = deadlines.expired(now)) != null; ) {
                expire(late, now);
            }
            if (window.over(now)) {
                if (drainDeadline == Long.MAX_VALUE) {
                    drainDeadline = now + plan.drainTimeout().toNanos();
                    tally.cpuEnd(THREADS.getCurrentThreadCpuTime());
                }
                if (inFlight == 0 || now >= drainDeadline) {
                    tally.unfinished(inFlight);
                    return;
                }
            }
            while (!waiting.isEmpty() && waiting.peek().wakeAt <= now) {
                Conn c = waiting.poll();
                if (c.channel == null) {
                    connect(c, now);
                } else {
                    issue(c, now);
                }
            }
            long wake = Math.min(drainDeadline, waiting.isEmpty() ? Long.MAX_VALUE : waiting.peek().wakeAt);
            wake = Math.min(wake, deadlines.nextDeadlineNanos());
            if (!tally.cpuStarted()) {
                wake = Math.min(wake, window.measureFromNanos);
            }
            if (!window.over(now)) {
                wake = Math.min(wake, window.measureUntilNanos());
            }
            long waitNanos = wake == Long.MAX_VALUE ? 100_000_000L : wake - System.nanoTime();
            if (waitNanos <= 0) {
                selector.selectNow();
            } else {
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos)));
            }
            for (SelectionKey key : selector.selectedKeys()) {
                handle((Conn) key.attachment(), key);
            }
            selector.selectedKeys().clear();
        }
    }

    private void handle(Conn c, SelectionKey key) {
        try {
            if (!key.isValid()) {
                return;
            }
            if (key.isConnectable()) {
                c.channel.finishConnect();
                deadlines.remove(c.deadline);
                key.interestOps(0);
                idle(c, System.nanoTime());
            } else if (key.isWritable()) {
                if (c.channel.write(c.out) > 0) {
                    deadlines.progress(c.deadline, System.nanoTime());
                }
                if (!c.out.hasRemaining()) {
                    key.interestOps(SelectionKey.OP_READ);
                }
            } else if (key.isReadable()) {
                read(c, key);
            }
        } catch (IOException e) {
            fail(c, "io: " + e.getMessage());
        } catch (LoadProtocolException e) {
            fail(c, "protocol: " + e.getMessage());
        }
    }

    private void read(Conn c, SelectionKey key) throws IOException, LoadProtocolException {
        int n;
        try {
            n = c.channel.read(readBuffer.clear());
        } catch (IOException reset) {
            if (!(c.busy && c.parser.closed())) {
                throw reset;
            }
            n = -1; // a server that resets rather than shuts down after its whole, good Connection: close answer
        }
        if (n < 0) {
            if (c.busy && c.parser.closed()) { // a Connection: close answer ends with the connection
                long now = System.nanoTime();
                complete(c, now, c.parser.outcome());
                reconnect(c, now, 0);
                return;
            }
            fail(c, c.busy ? "closed mid-response" : "closed while idle");
            return;
        }
        if (!c.busy) {
            throw new LoadProtocolException(n + " unsolicited bytes");
        }
        readBuffer.flip();
        if (!c.parser.feed(readBuffer)) {
            if (n > 0) { // more to come: its deadline runs from these bytes (a completed answer needs no clock read here)
                deadlines.progress(c.deadline, System.nanoTime());
            }
            return;
        }
        // On a connection closed after this response, what follows is the server's parting words (after a refused
        // upload, its error about the unread body it took for a request): not this request's fault.
        if (readBuffer.hasRemaining() && !c.parser.closesConnection()) {
            throw new LoadProtocolException(readBuffer.remaining() + " bytes after the response");
        }
        long now = System.nanoTime();
        ExchangeOutcome outcome = c.parser.outcome();
        complete(c, now, outcome);
        if (c.parser.closesConnection()) {
            reconnect(c, now, 0);
        } else {
            key.interestOps(0);
            idle(c, now);
        }
    }

    private void complete(Conn c, long now, ExchangeOutcome outcome) {
        c.busy = false;
        inFlight--;
        deadlines.remove(c.deadline);
        LoadStep step = c.step;
        c.step = null;
        c.script.completed(step, outcome);
        if (window.counts(c.measured, now)) {
            if (TIMEOUT.equals(outcome.error())) {
                // Not a latency sample: all that is known is that it exceeded the timeout. The connection's next request,
                // in an open loop, still has its latency from its intended start, the wait behind this one included.
                tally.timedOut(step.op(), now);
            } else {
                tally.record(now - c.intended, step.op(), outcome, now);
            }
        } else if (!outcome.ok()) {
            String cause = step.setup() ? "setup " + step.op() + ": " + outcome.error() : outcome.error();
            if (step.setup() && now >= window.measureFromNanos && !window.over(now)) {
                // A failed setup request stalls the measured ones behind it: it must show.
                tally.error(cause);
            } else if (c.measured || (step.setup() && now >= window.measureFromNanos)) {
                tally.drainError(cause);
            } else {
                // A wrong answer while warming up is no less wrong: counted apart from the window, never dropped.
                tally.warmupError(cause);
            }
        }
    }

    /** A connection with nothing in flight: send now (closed loop, or open loop behind schedule) or wait. */
    private void idle(Conn c, long now) {
        if (!plan.openLoop()) {
            issue(c, now);
        } else if (c.nextIntended <= now) {
            issue(c, now);
        } else {
            c.wakeAt = c.nextIntended;
            waiting.add(c);
        }
    }

    private void issue(Conn c, long now) {
        LoadStep step = c.script.next();
        if (step == null) {
            return;
        }
        if (step.setup()) {
            // Not a request of the run: no ticket, no place in the open-loop schedule.
            if (window.over(now)) {
                return;
            }
            c.intended = now;
            c.measured = false;
        } else {
            long intended = plan.openLoop() ? c.nextIntended : now;
            int admitted = window.admit(intended);
            if (admitted < 0) {
                return;
            }
            c.intended = intended;
            c.measured = admitted == 1;
            c.nextIntended = intended + intervalNanos;
        }
        c.step = step;
        c.parser = step.parser();
        c.out = step.request();
        c.busy = true;
        inFlight++;
        deadlines.progress(c.deadline, now);
        try {
            c.channel.write(c.out);
            c.key.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        } catch (IOException e) {
            fail(c, "io: " + e.getMessage());
        }
    }

    /**
     * A deadline passed: a request with no answer (or whose answer stopped) is counted as {@link #TIMEOUT}, a connect
     * that did not finish as a connect failure; either way the connection is closed, so that nothing the server sends
     * late can be read as a later request's answer, and a new one is opened at once.
     */
    private void expire(Conn c, long now) {
        if (c.busy) {
            complete(c, now, ExchangeOutcome.failed(TIMEOUT, 0));
            reconnect(c, now, 0);
        } else {
            fail(c, "connect: not connected within " + NoAnswerException.format(plan.answerTimeout()));
        }
    }

    private void fail(Conn c, String error) {
        long now = System.nanoTime();
        if (c.busy) {
            complete(c, now, ExchangeOutcome.failed(error, 0));
        } else if (window.admit(now) == 1) {
            // A connection lost between requests (refused, reset while idle) stands for a measured request that could
            // not be sent: it takes one's ticket, so a run bounded by count ends even when the server is gone for good.
            tally.error(error);
        }
        reconnect(c, now, RECONNECT_BACKOFF_NANOS);
    }

    private void reconnect(Conn c, long now, long backoffNanos) {
        deadlines.remove(c.deadline);
        c.closeQuietly();
        if (window.over(now)) {
            return;
        }
        c.wakeAt = now + backoffNanos;
        if (plan.openLoop() && c.nextIntended < now) {
            c.wakeAt = Math.max(c.wakeAt, now);
        }
        waiting.add(c);
    }

    private void connect(Conn c, long now) {
        try {
            SocketChannel ch = SocketChannel.open();
            c.channel = ch;
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.key = ch.register(selector, 0, c);
            if (ch.connect(plan.target())) {
                idle(c, now);
            } else {
                c.key.interestOps(SelectionKey.OP_CONNECT);
                deadlines.progress(c.deadline, now); // a connect that never finishes is bounded too
            }
        } catch (IOException e) {
            fail(c, "connect: " + e.getMessage());
        }
    }

    /** One connection's state; touched by its worker thread only. */
    private static final class Conn {
        final ConnectionScript script;
        final RequestDeadlines.Entry<Conn> deadline = new RequestDeadlines.Entry<>(this);
        LoadStep step;
        SocketChannel channel;
        SelectionKey key;
        ResponseParser parser;
        ByteBuffer out;
        boolean busy;
        boolean measured;
        long intended;
        long nextIntended;
        long wakeAt;

        Conn(ConnectionScript script) {
            this.script = script;
        }

        void closeQuietly() {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // Closing a socket we are done with: nothing left to lose.
                }
                channel = null;
                key = null;
            }
        }
    }
}
