package io.xferbench.core.pipe;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Splice;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reuses splice pipes instead of paying {@code pipe2(2)} (+ {@code F_SETPIPE_SZ}, + two {@code close(2)}) for every
 * transfer or connection. All pipes of one pool have the same capacity.
 *
 * <p>{@link #acquire()} looks, in order, in the calling thread's own slot (one pipe per thread, no contention;
 * only when the pool was built {@code threadLocalFirst}), in the shared idle pool (a bounded LIFO deque, so the
 * most recently used pipe comes back first), and only then opens a new pipe. {@link #release} puts a pipe back
 * in the thread's slot if it is empty, else in the shared pool if it holds fewer than {@link #maxIdle()} pipes,
 * else closes it. A pipe that may still hold bytes (the transfer failed) is always closed.
 *
 * <p>Bounded fds: at most {@code maxIdle} shared idle pipes plus one per thread that used the pool. A pipe left in
 * the slot of a thread that ended is moved to the shared pool (or closed) the next time the pool has to open a
 * pipe, and by {@link #trim()}. {@link #maxIdle(int)} shrinks the shared pool at once (closing the surplus);
 * {@link #close()} closes every idle pipe, the threads' slots included, and makes {@link #acquire()} fail.
 *
 * <p>Thread-safe. Pipes handed out are owned by the caller until released; the pool never touches them.
 */
public final class PipePool implements PipeSource, AutoCloseable {
    public static final int DEFAULT_MAX_IDLE = 64;

    private static final ConcurrentHashMap<Integer, PipePool> SHARED = new ConcurrentHashMap<>();
    private static volatile int maxPipeSize;

    private final int pipeSize;
    private final boolean threadLocalFirst;
    private final ConcurrentLinkedDeque<Splice.Pipe> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger idleCount = new AtomicInteger();
    private final Set<Slot> slots = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<Slot> slot = ThreadLocal.withInitial(this::newSlot);
    private volatile int maxIdle;
    private volatile boolean closed;

    private final LongAdder created = new LongAdder();
    private final LongAdder threadLocalHits = new LongAdder();
    private final LongAdder sharedHits = new LongAdder();
    private final LongAdder discarded = new LongAdder();

    /**
     * @param pipeSize         capacity of every pipe (F_SETPIPE_SZ when not the kernel's default)
     * @param maxIdle          most pipes kept in the shared idle pool (0: none, only the threads' slots)
     * @param threadLocalFirst whether each thread keeps one pipe of its own before the shared pool is used
     */
    public PipePool(int pipeSize, int maxIdle, boolean threadLocalFirst) {
        if (pipeSize <= 0) {
            throw new IllegalArgumentException("pipe size " + pipeSize + " <= 0");
        }
        if (maxIdle < 0) {
            throw new IllegalArgumentException("maxIdle " + maxIdle + " < 0");
        }
        this.pipeSize = pipeSize;
        this.maxIdle = maxIdle;
        this.threadLocalFirst = threadLocalFirst;
    }

    /**
     * The process-wide pool (thread-local first, then up to {@link #DEFAULT_MAX_IDLE} shared) for pipes of
     * {@code pipeSize} bytes. Sizes the kernel would round to the same capacity share one pool, so the number of
     * pools stays small (one per power-of-two number of pages up to /proc/sys/fs/pipe-max-size) whatever sizes
     * clients ask for. Never closed.
     */
    public static PipePool shared(int pipeSize) {
        int capacity = capacityFor(pipeSize);
        return SHARED.computeIfAbsent(capacity, c -> new PipePool(c, DEFAULT_MAX_IDLE, true));
    }

    /**
     * The capacity the kernel gives a pipe asked for {@code requested} bytes: capped at pipe-max-size (as
     * {@link Splice.Pipe#resize} caps it), rounded up to a power-of-two number of pages.
     */
    static int capacityFor(int requested) {
        if (requested <= 0) {
            throw new IllegalArgumentException("pipe size " + requested + " <= 0");
        }
        int max = maxPipeSize();
        int bytes = max > 0 ? Math.min(requested, max) : requested;
        int page = AlignedBuffers.pageSize();
        int pages = (int) ((bytes + (long) page - 1) / page);
        int rounded = pages <= 1 ? 1 : Integer.highestOneBit(pages - 1) << 1;
        return rounded * page;
    }

    private static int maxPipeSize() {
        int m = maxPipeSize;
        if (m == 0) {
            try {
                m = Splice.Pipe.maxSize();
            } catch (IOException | RuntimeException e) {
                m = -1; // not Linux, or /proc not mounted: no cap known
            }
            maxPipeSize = m;
        }
        return m;
    }

    @Override
    public int pipeSize() {
        return pipeSize;
    }

    public boolean threadLocalFirst() {
        return threadLocalFirst;
    }

    public int maxIdle() {
        return maxIdle;
    }

    @Override
    public Splice.Pipe acquire() throws IOException {
        if (closed) {
            throw new IllegalStateException("pipe pool closed");
        }
        if (threadLocalFirst) {
            Splice.Pipe p = slot.get().take();
            if (p != null) {
                threadLocalHits.increment();
                return p;
            }
        }
        Splice.Pipe p = pollShared();
        if (p != null) {
            sharedHits.increment();
            return p;
        }
        if (threadLocalFirst) {
            // About to pay for a new pipe: first take back pipes parked in the slots of threads that ended.
            trim();
            p = pollShared();
            if (p != null) {
                sharedHits.increment();
                return p;
            }
        }
        created.increment();
        return open(pipeSize);
    }

    @Override
    public void release(Splice.Pipe pipe, boolean reusable) {
        if (!reusable || closed) {
            discard(pipe);
            return;
        }
        if (threadLocalFirst) {
            Slot s = slot.get();
            if (s.offer(pipe)) {
                if (closed) {
                    discardAll(s); // close() may have swept the slots before the pipe arrived
                }
                return;
            }
        }
        if (offerShared(pipe)) {
            if (closed) {
                drainShared();
            }
            return;
        }
        discard(pipe);
    }

    /** Sets the shared pool's bound; a smaller one closes the surplus idle pipes now. */
    public void maxIdle(int newMaxIdle) {
        if (newMaxIdle < 0) {
            throw new IllegalArgumentException("maxIdle " + newMaxIdle + " < 0");
        }
        maxIdle = newMaxIdle;
        while (idleCount.get() > newMaxIdle) {
            Splice.Pipe p = idle.pollLast(); // the least recently used
            if (p == null) {
                break;
            }
            idleCount.decrementAndGet();
            discard(p);
        }
    }

    /** Moves the pipes of threads that have ended from their slots to the shared pool, closing what does not fit. */
    public void trim() {
        for (Slot s : slots) {
            Thread owner = s.owner.get();
            if (owner == null || !owner.isAlive()) {
                slots.remove(s);
                Splice.Pipe p = s.take();
                if (p != null && (closed || !offerShared(p))) {
                    discard(p);
                }
            }
        }
    }

    /** Closes every idle pipe (shared and in every thread's slot); later acquires fail, later releases close. */
    @Override
    public void close() {
        closed = true;
        drainShared();
        for (Slot s : slots) {
            discardAll(s);
        }
        slots.clear();
    }

    public Stats stats() {
        int inSlots = 0;
        for (Slot s : slots) {
            inSlots += s.pipe.get() != null ? 1 : 0;
        }
        return new Stats(created.sum(), threadLocalHits.sum(), sharedHits.sum(), discarded.sum(), idleCount.get(), inSlots);
    }

    /**
     * @param created         pipes opened (pipe2) by this pool
     * @param threadLocalHits acquires served from the calling thread's slot
     * @param sharedHits      acquires served from the shared idle pool
     * @param closed          pipes the pool closed (not reusable, no room, shrink, close)
     * @param idleShared      pipes idle in the shared pool now
     * @param idleInSlots     pipes idle in threads' slots now
     */
    public record Stats(long created, long threadLocalHits, long sharedHits, long closed, int idleShared, int idleInSlots) {
    }

    @Override
    public String toString() {
        return "pipe pool (" + pipeSize + " bytes, " + (threadLocalFirst ? "thread-local first, " : "") + "max " + maxIdle + " shared idle)";
    }

    private Splice.Pipe pollShared() {
        Splice.Pipe p = idle.pollFirst();
        if (p != null) {
            idleCount.decrementAndGet();
        }
        return p;
    }

    private boolean offerShared(Splice.Pipe pipe) {
        if (idleCount.incrementAndGet() > maxIdle) {
            idleCount.decrementAndGet();
            return false;
        }
        idle.offerFirst(pipe);
        return true;
    }

    private void drainShared() {
        Splice.Pipe p;
        while ((p = pollShared()) != null) {
            discard(p);
        }
    }

    private void discardAll(Slot s) {
        Splice.Pipe p = s.take();
        if (p != null) {
            discard(p);
        }
    }

    private void discard(Splice.Pipe pipe) {
        discarded.increment();
        closeQuietly(pipe);
    }

    private Slot newSlot() {
        Slot s = new Slot(Thread.currentThread());
        slots.add(s);
        return s;
    }

    /** A fresh pipe of {@code pipeSize} bytes: pipe2, and F_SETPIPE_SZ when the default capacity differs. */
    static Splice.Pipe open(int pipeSize) throws IOException {
        Splice.Pipe p = Splice.Pipe.open();
        try {
            if (p.size() != pipeSize) {
                p.resize(pipeSize);
            }
            return p;
        } catch (IOException | RuntimeException e) {
            closeQuietly(p);
            throw e;
        }
    }

    static void closeQuietly(Splice.Pipe pipe) {
        try {
            pipe.close();
        } catch (IOException ignored) {
            // Nothing more to do with a pipe that will not close.
        }
    }

    /** One thread's pipe: taken and offered with atomic swaps, so {@link #close()} and the owner never share one. */
    private static final class Slot {
        final AtomicReference<Splice.Pipe> pipe = new AtomicReference<>();
        final WeakReference<Thread> owner;

        Slot(Thread owner) {
            this.owner = new WeakReference<>(owner);
        }

        Splice.Pipe take() {
            return pipe.getAndSet(null);
        }

        boolean offer(Splice.Pipe p) {
            return pipe.compareAndSet(null, p);
        }
    }
}
