package io.xferbench.core.net;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Bounds a blocking exchange: blocking channels have no read timeout (and making the connection non-blocking would
 * change the syscalls of the measured transfers), so a timer closes the channel when the first answer is late or,
 * once bytes flow, when they stop flowing; the exchange's failure is then reported as {@link NoAnswerException}. The
 * connection is unusable afterwards. One timer task per exchange, rescheduled only while bytes flow.
 */
final class AnswerDeadline implements AutoCloseable {
    private static final ScheduledThreadPoolExecutor TIMER = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "xferbench-answer-deadline");
        t.setDaemon(true);
        return t;
    });

    static {
        TIMER.setRemoveOnCancelPolicy(true); // a cancelled deadline leaves the queue at once, not when it would have fired
    }

    /** A blocking exchange on the channel. */
    @FunctionalInterface
    interface Wait<T> {
        T run() throws IOException;
    }

    private final SocketChannel channel;
    private final String peer;
    private final Duration firstAnswer;
    private final Duration stall;
    private final LongSupplier progress;
    private final long startProgress;
    private long lastProgress;
    private volatile String expired;
    private ScheduledFuture<?> timer;

    /**
     * @param firstAnswer how long until the first sign of an answer (progress moving)
     * @param stall       how long progress may then stand still
     * @param progress    bytes moved so far (a constant: the whole exchange is bounded by {@code firstAnswer})
     */
    private AnswerDeadline(SocketChannel channel, String peer, Duration firstAnswer, Duration stall, LongSupplier progress) {
        this.channel = channel;
        this.peer = peer;
        this.firstAnswer = firstAnswer;
        this.stall = stall;
        this.progress = progress;
        this.startProgress = progress.getAsLong();
        this.lastProgress = startProgress;
    }

    /** Starts the deadline; {@link #close} when the exchange is over, {@link #throwIfExpired} on its failure. */
    static AnswerDeadline start(SocketChannel channel, String peer, Duration firstAnswer, Duration stall, LongSupplier progress) {
        AnswerDeadline d = new AnswerDeadline(channel, peer, firstAnswer, stall, progress);
        synchronized (d) {
            d.timer = TIMER.schedule(d::check, firstAnswer.toNanos(), TimeUnit.NANOSECONDS);
        }
        return d;
    }

    /** Runs {@code wait} with no answer allowed later than {@code limit}. */
    static <T> T await(SocketChannel channel, String peer, Duration limit, Wait<T> wait) throws IOException {
        try (AnswerDeadline d = start(channel, peer, limit, limit, () -> 0)) {
            try {
                return wait.run();
            } catch (IOException | RuntimeException e) {
                d.throwIfExpired();
                throw e;
            }
        }
    }

    private synchronized void check() {
        if (timer == null) {
            return; // closed meanwhile
        }
        long now = progress.getAsLong();
        if (now != lastProgress) {
            lastProgress = now;
            timer = TIMER.schedule(this::check, stall.toNanos(), TimeUnit.NANOSECONDS);
            return;
        }
        expired = now == startProgress ? "no answer from " + peer + " within " + seconds(firstAnswer)
                : "the transfer with " + peer + " stalled: no byte for " + seconds(stall);
        try {
            channel.close();
        } catch (IOException ignored) {
            // Closing is how the wait is ended; a failure to close leaves nothing else to do.
        }
    }

    /** On an exchange's failure: if the deadline ended it, that is the reason (the closed channel's error is not). */
    void throwIfExpired() throws NoAnswerException {
        String why = expired;
        if (why != null) {
            throw new NoAnswerException(why);
        }
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
