package io.xferbench.server.loop;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.unix.UnixChannel;
import io.netty.util.concurrent.ScheduledFuture;
import io.xferbench.server.limits.StallWatch;
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
 *
 * <p>While a body moves ({@link #watchBody}) the same check also looks whether any byte moved on the socket
 * ({@link StallWatch}), a few times per idle timeout, and closes the connection once none did for the idle timeout.
 */
public final class EventLoopDeadline {
    private static final Logger LOG = Logger.getLogger(EventLoopDeadline.class.getName());

    private final ChannelHandlerContext ctx;
    private final String model;
    /** System.nanoTime() at which the connection closes, and what it waited for. */
    private long at;
    private String what;
    private ScheduledFuture<?> check;
    /** System.nanoTime() at which {@link #check} fires. */
    private long checkAt;
    /** Whether a moving body still moves. */
    private final StallWatch stall = new StallWatch();

    public EventLoopDeadline(ChannelHandlerContext ctx, String model) {
        this.ctx = ctx;
        this.model = model;
    }

    /** The connection closes unless armed again within {@code budget}; a body watched before is no longer. */
    public void arm(Duration budget, String what) {
        long nanos = Math.min(budget.toNanos(), Long.MAX_VALUE / 4);
        this.at = System.nanoTime() + nanos;
        this.what = what;
        stall.stop();
        if (check == null || at - checkAt < 0) {
            schedule(at, nanos);
        }
    }

    /**
     * A body moves from now: besides the armed deadline, the connection closes once no byte moved on its socket for
     * {@code limit}; until the deadline is armed again or {@link #bodyMoved}.
     */
    public void watchBody(Duration limit) {
        long now = System.nanoTime();
        stall.start(now, limit);
        // A check due within the limit (the idle deadline's, as a rule) takes the first look, however late: a stall is
        // only ever told a whole limit after a look saw the count, and the transfer's start costs no timer-queue insert.
        if (check == null || checkAt - (now + stall.limitNanos()) > 0) {
            long look = stall.nextLookNanos();
            schedule(look, look - now);
        }
    }

    /** The body is through: no more looks at the socket (the deadline stays). */
    public void bodyMoved() {
        stall.stop();
    }

    /** No deadline any more (the connection is closed). */
    public void cancel() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }

    private void schedule(long when, long nanos) {
        cancel();
        checkAt = when;
        check = ctx.executor().schedule(this::fire, nanos, TimeUnit.NANOSECONDS);
    }

    private void fire() {
        check = null;
        long now = System.nanoTime();
        if (stall.watching() && now - stall.nextLookNanos() >= 0 && stalled(now)) {
            long seconds = TimeUnit.NANOSECONDS.toSeconds(stall.limitNanos());
            LOG.info(() -> model + " conn " + ctx.channel().remoteAddress() + ": closed: no byte of its transfer moved for its idle timeout ("
                    + seconds + "s)");
            ctx.close();
            return;
        }
        long left = at - now;
        if (left > 0) {
            long when = stall.watching() && stall.nextLookNanos() - at < 0 ? stall.nextLookNanos() : at;
            schedule(when, when - now);
            return;
        }
        String passed = what;
        LOG.info(() -> model + " conn " + ctx.channel().remoteAddress() + ": closed after its " + passed + " passed");
        ctx.close();
    }

    /** A look at the socket's count of bytes moved (on the loop, which alone closes the channel). */
    private boolean stalled(long now) {
        long count = ctx.channel().isOpen() && ctx.channel() instanceof UnixChannel unix
                ? StallWatch.count(unix.fd().intValue()) : StallWatch.UNREADABLE;
        return stall.stalled(now, count);
    }
}
