package io.xferbench.server.loop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One event loop's hand-offs to the file pool, in batches: the file work its connections ask for during one turn of
 * the loop (the requests of one {@code epoll_wait}) goes to the pool as one task per {@link #MAX_BATCH} items, run in
 * order on one pool thread, and their results come back to the loop as one task. Handing each request over on its own
 * could wake a pool thread per request, and on a loop sharing its core with the pool each wake-up is a context switch
 * away from the loop and back (docs/load.md, "`netty-epoll`'s CPU per download"). Used on the loop only.
 */
public final class FileWorkBatches {
    private static final Logger LOG = Logger.getLogger(FileWorkBatches.class.getName());

    /**
     * Items per pool task: a batch runs in order on one thread, so a slow item (a cold open, a large upload chunk)
     * holds up at most this many others, and a long turn of the loop still spreads over several pool threads.
     */
    public static final int MAX_BATCH = 16;

    /** The event loop, as what runs its tasks. */
    private final Executor loop;
    private final Executor pool;
    private List<Item<?>> queued = new ArrayList<>();
    private final Runnable flush = this::flush;

    FileWorkBatches(Executor loop, Executor pool) {
        this.loop = loop;
        this.pool = pool;
    }

    /**
     * Queues {@code work} for the pool; {@code then} gets its result (or {@code failure} what it threw) on the loop,
     * after the loop's current turn. If the pool refuses it (it is shut down: the server is stopping), {@code refused}
     * runs on the loop instead; if the loop itself refuses the batch's task (it is stopping), at once. A result the stopped loop cannot take is closed.
     */
    public <T> void submit(FileTask<T> work, Consumer<T> then, Consumer<Throwable> failure, Runnable refused) {
        if (queued.isEmpty()) {
            try {
                // Runs after the I/O events of this turn: every request they carry joins the batch.
                loop.execute(flush);
            } catch (RejectedExecutionException e) {
                refused.run(); // the loop itself is stopping
                return;
            }
        }
        queued.add(new Item<>(work, then, failure, refused));
    }

    private void flush() {
        List<Item<?>> all = queued;
        queued = new ArrayList<>();
        for (int from = 0; from < all.size(); from += MAX_BATCH) {
            List<Item<?>> batch = all.subList(from, Math.min(all.size(), from + MAX_BATCH));
            try {
                pool.execute(() -> runOnPool(batch));
            } catch (RejectedExecutionException e) {
                batch.forEach(item -> item.refused.run());
            }
        }
    }

    private void runOnPool(List<Item<?>> batch) {
        List<Done<?>> results = new ArrayList<>(batch.size());
        for (Item<?> item : batch) {
            results.add(item.runWork());
        }
        try {
            loop.execute(() -> results.forEach(FileWorkBatches::deliver));
        } catch (RejectedExecutionException e) {
            results.forEach(Done::discard);
        }
    }

    /** One result back on the loop; a continuation that throws does not keep the batch's others from theirs. */
    private static void deliver(Done<?> done) {
        try {
            done.deliver();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "a file-work continuation failed", e);
        }
    }

    private record Item<T>(FileTask<T> work, Consumer<T> then, Consumer<Throwable> failure, Runnable refused) {
        Done<T> runWork() {
            try {
                return new Done<>(this, work.run(), null);
            } catch (IOException | RuntimeException | Error e) {
                return new Done<>(this, null, e);
            }
        }
    }

    private record Done<T>(Item<T> item, T result, Throwable thrown) {
        void deliver() {
            if (thrown == null) {
                item.then.accept(result);
            } else {
                item.failure.accept(thrown);
            }
        }

        void discard() {
            if (result instanceof AutoCloseable c) {
                Quietly.close(c);
            }
        }
    }
}
