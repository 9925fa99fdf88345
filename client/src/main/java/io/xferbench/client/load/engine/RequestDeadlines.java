package io.xferbench.client.load.engine;

import java.time.Duration;

/**
 * The deadlines of one event loop's requests in flight: a request expires when none of its bytes moved, either way,
 * for the answer timeout. Every deadline is its last progress plus the same timeout, so a list kept in order of last
 * progress (a request moved to its tail whenever bytes move) is in deadline order: the head is the next to expire, and
 * adding, moving and removing are O(1), with no entry left behind by a request that completed. One per event-loop
 * thread, touched by that thread only.
 *
 * @param <T> what is in flight (a connection)
 */
final class RequestDeadlines<T> {
    /** One request's place in the list; made once per connection and reused for each of its requests. */
    static final class Entry<T> {
        final T owner;
        private long lastProgressNanos;
        private Entry<T> previous;
        private Entry<T> next;
        private boolean queued;

        Entry(T owner) {
            this.owner = owner;
        }
    }

    private final long timeoutNanos;
    private Entry<T> head;
    private Entry<T> tail;

    RequestDeadlines(Duration timeout) {
        if (timeout == null || !timeout.isPositive()) {
            throw new IllegalArgumentException("the answer timeout must be positive, not " + timeout);
        }
        this.timeoutNanos = timeout.toNanos();
    }

    /** A request started, or some of its bytes moved, at {@code nowNanos}: its deadline is the timeout from now. */
    void progress(Entry<T> e, long nowNanos) {
        if (e.queued) {
            unlink(e);
        }
        e.lastProgressNanos = nowNanos;
        e.previous = tail;
        e.next = null;
        if (tail != null) {
            tail.next = e;
        } else {
            head = e;
        }
        tail = e;
        e.queued = true;
    }

    /** The request is over (answered, failed or expired): it has no deadline. */
    void remove(Entry<T> e) {
        if (e.queued) {
            unlink(e);
        }
    }

    /** The owner of a request whose deadline is at or before {@code nowNanos}, removed from the list; null if none. */
    T expired(long nowNanos) {
        if (head == null || nowNanos - head.lastProgressNanos < timeoutNanos) {
            return null;
        }
        Entry<T> e = head;
        unlink(e);
        return e.owner;
    }

    /** When the next deadline falls, or {@link Long#MAX_VALUE} when nothing is in flight. */
    long nextDeadlineNanos() {
        return head == null ? Long.MAX_VALUE : head.lastProgressNanos + timeoutNanos;
    }

    private void unlink(Entry<T> e) {
        if (e.previous != null) {
            e.previous.next = e.next;
        } else {
            head = e.next;
        }
        if (e.next != null) {
            e.next.previous = e.previous;
        } else {
            tail = e.previous;
        }
        e.previous = null;
        e.next = null;
        e.queued = false;
    }
}
