package io.xferbench.core.netty;

import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/** Blocking waits on Netty futures from the JDK connection threads. */
public final class NettyFutures {
    /** A transfer whose progress counter has not moved for this long is given up. */
    public static final Duration DEFAULT_STALL = Duration.ofSeconds(60);

    private NettyFutures() {
    }

    /**
     * Waits until {@code future} is done, failing if {@code progress} has not changed for {@code stall}.
     *
     * @throws IOException the future's cause (unwrapped when it is one), or a stall
     */
    public static void await(Future<?> future, LongSupplier progress, Duration stall, String what) throws IOException {
        long last = progress.getAsLong();
        long lastChange = System.nanoTime();
        try {
            while (!future.await(250, TimeUnit.MILLISECONDS)) {
                long now = progress.getAsLong();
                if (now != last) {
                    last = now;
                    lastChange = System.nanoTime();
                } else if (System.nanoTime() - lastChange > stall.toNanos()) {
                    throw new IOException(what + ": no progress for " + stall.toSeconds() + " s (at " + now + " bytes)");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + what);
        }
        if (!future.isSuccess()) {
            Throwable cause = future.cause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(what + " failed: " + cause, cause);
        }
    }

    /** Runs {@code task} on the channel's event loop and waits for it: afterwards nothing queued before it is still running. */
    public static void onLoop(Channel channel, Runnable task) throws IOException {
        try {
            channel.eventLoop().submit(task).sync();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the event loop of " + channel);
        }
    }

    /** Closes the channel and waits, ignoring what a close can fail with. */
    public static void closeQuietly(Channel channel) {
        if (channel != null) {
            channel.close().awaitUninterruptibly();
        }
    }
}
