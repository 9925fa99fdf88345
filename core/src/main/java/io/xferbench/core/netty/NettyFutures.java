package io.xferbench.core.netty;

import io.xferbench.nativeio.Fds;

import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;
import io.xferbench.nativeio.Fds;
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
        await(future, progress, stall, what, -1);
    }

    /**
     * As {@link #await(Future, LongSupplier, Duration, String)}, and also fails as soon as {@code socketFd} shows
     * an error or hang-up: a peer's reset does not always reach a Netty channel that has no operation pending,
     * and nobody should wait a whole stall period for a client that is gone.
     */
    public static void await(Future<?> future, LongSupplier progress, Duration stall, String what, int socketFd) throws IOException {
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
                if (socketFd >= 0 && !future.isDone() && Fds.hasErrorOrHangup(socketFd)) {
                    throw new IOException(what + ": the connection was reset or hung up (at " + now + " bytes)");
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
