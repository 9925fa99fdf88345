package io.xferbench.server.limits;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Transfer buffer memory the whole server may hold, reserved by each connection's senders and receivers as they
 * are built and given back when they are closed. Without it one connection asking for many large buffers took the
 * server to an OutOfMemoryError.
 */
public final class BufferBudget {
    private final long limit;
    private final AtomicLong reserved = new AtomicLong();

    public BufferBudget(long limit) {
        this.limit = limit;
    }

    /** @return whether {@code bytes} more fit; if so they are now reserved */
    public boolean tryReserve(long bytes) {
        long now;
        do {
            now = reserved.get();
            if (now + bytes > limit) {
                return false;
            }
        } while (!reserved.compareAndSet(now, now + bytes));
        return true;
    }

    public void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    public long reserved() {
        return reserved.get();
    }

    public long limit() {
        return limit;
    }
}
