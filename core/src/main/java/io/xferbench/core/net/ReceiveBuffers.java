package io.xferbench.core.net;

import io.xferbench.nativeio.AlignedBuffers;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process's free {@link BodyReceiver} buffers (page-aligned, {@link BodyReceiver#BUFFER_SIZE} bytes): a connection
 * takes one on its first body and gives it back when it closes, so short connections and a command's row after row
 * reuse the same few instead of allocating (zeroing, faulting in) 1 MiB of direct memory each and leaving it to the
 * GC. One is allocated only when none is free, so the free ones never outnumber the most ever in use at once; at most
 * {@link #MAX_FREE} are kept, the rest are left to the GC.
 */
final class ReceiveBuffers {
    /** 64 MiB kept at most: the buffers of 64 connections receiving at once. */
    static final int MAX_FREE = 64;

    private static final ConcurrentLinkedDeque<ByteBuffer> FREE = new ConcurrentLinkedDeque<>();
    private static final AtomicInteger FREE_COUNT = new AtomicInteger();

    private ReceiveBuffers() {
    }

    /** A free buffer (cleared), or a new one when none is. */
    static ByteBuffer take() {
        ByteBuffer b = FREE.pollFirst(); // the most recently used: its pages are the likeliest still in the CPU's caches
        if (b == null) {
            return AlignedBuffers.allocate(BodyReceiver.BUFFER_SIZE, AlignedBuffers.pageSize());
        }
        FREE_COUNT.decrementAndGet();
        return b.clear();
    }

    /** Gives back a buffer from {@link #take}; its taker must not touch it again. */
    static void give(ByteBuffer buffer) {
        if (FREE_COUNT.incrementAndGet() <= MAX_FREE) {
            FREE.offerFirst(buffer);
        } else {
            FREE_COUNT.decrementAndGet();
        }
    }
}
