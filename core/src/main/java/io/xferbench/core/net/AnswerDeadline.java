package io.xferbench.core.net;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bounds a blocking wait for an answer: blocking channels have no read timeout (and making the connection
 * non-blocking would change the syscalls of the measured transfers), so a timer closes the channel when the answer
 * is late, and the wait's failure is reported as {@link NoAnswerException}. The connection is unusable afterwards.
 */
final class AnswerDeadline {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "xferbench-answer-deadline");
        t.setDaemon(true);
        return t;
    });

    /** A blocking exchange on the channel. */
    @FunctionalInterface
    interface Wait<T> {
        T run() throws IOException;
    }

    private AnswerDeadline() {
    }

    /**
     * @param what  what is awaited, for the message ("no answer from HOST:PORT within 60s")
     * @param limit how long the answer may take
     */
    static <T> T await(SocketChannel channel, String peer, Duration limit, Wait<T> wait) throws IOException {
        AtomicBoolean expired = new AtomicBoolean();
        ScheduledFuture<?> timer = TIMER.schedule(() -> {
            expired.set(true);
            try {
                channel.close();
            } catch (IOException ignored) {
                // Closing is how the wait is ended; a failure to close leaves nothing else to do.
            }
        }, limit.toNanos(), TimeUnit.NANOSECONDS);
        try {
            return wait.run();
        } catch (IOException | RuntimeException e) {
            if (expired.get()) {
                throw new NoAnswerException(peer, limit);
            }
            throw e;
        } finally {
            timer.cancel(false);
        }
    }
}
