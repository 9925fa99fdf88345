package io.xferbench.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The deadline of one event-loop connection (idle, transfer, linger): the connection closes when it passes before
 * the deadline is armed again. Confined to the connection's loop.
 *
 * <p>Arming is two field writes: one check per connection waits on the loop's timer queue, and when it fires before
 * the deadline (which moved later meanwhile, as it does with every request) it waits again for the rest. Only a
 * deadline earlier than the waiting check (the linger after a last answer) schedules at once. Cancelling the check
 * and scheduling a new one on every arm cost a timer-queue removal and insert and a task object, twice per request.
 */
final class EventLoopDeadline {
    private static final Logger LOG = Logger.getLogger(EventLoopDeadline.class.getName());

    private final ChannelHandlerContext ctx;
    private final String model;
    /** System.nanoTime() at which the connection closes, and what it waited for. */
    private long at;
    private String what;
    private ScheduledFuture<?> check;
    /** System.nanoTime() at which {@link #check} fires. */
    private long checkAt;

    EventLoopDeadline(ChannelHandlerContext ctx, String model) {
        this.ctx = ctx;
        this.model = model;
    }

    /** The connection closes unless armed again within {@code budget}. */
    void arm(Duration budget, String what) {
        long nanos = Math.min(budget.toNanos(), Long.MAX_VALUE / 4);
        this.at = System.nanoTime() + nanos;
        this.what = what;
        if (check == null || at - checkAt < 0) {
            schedule(nanos);
        }
    }

    /** No deadline any more (the connection is closed). */
    void cancel() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }

    private void schedule(long nanos) {
        cancel();
        checkAt = at;
        check = ctx.executor().schedule(this::fire, nanos, TimeUnit.NANOSECONDS);
    }

    private void fire() {
        check = null;
        long left = at - System.nanoTime();
        if (left > 0) {
            schedule(left);
            return;
        }
        String passed = what;
        LOG.info(() -> model + " conn " + ctx.channel().remoteAddress() + ": closed after its " + passed + " passed");
        ctx.close();
    }
}
