package io.xferbench.core.uring;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.uring.IoUringIoEvent;
import io.netty.channel.uring.IoUringIoHandle;
import io.netty.channel.uring.IoUringIoOps;
import io.xferbench.core.netty.NettyTransport;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One transfer driven by SQEs from an {@link IoUringIoHandle} on an event loop of Netty's io_uring transport, and
 * the calling thread's wait for it. Everything but {@link #run()} runs on the event loop. The transfer ends only
 * when no SQE of it is in flight (every submitted op has its last CQE), so the caller may then free the buffers and
 * close the fds the SQEs name; a failure is reported at that point too, never earlier.
 */
abstract class UringTransfer implements IoUringIoHandle {
    /** What {@link IoRegistration#submit} returns when the registration is no longer valid. */
    private static final long INVALID_ID = 0;

    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private IoRegistration registration;
    private int opsInFlight;
    private IOException failure;

    /** On the event loop, once registered: submit the first SQEs. */
    abstract void start();

    /** On the event loop: one CQE of this transfer's SQEs (a multishot op's non-final CQEs included). */
    abstract void completed(IoUringIoEvent event);

    /**
     * Whether every byte arrived where it should; asked whenever nothing is in flight and nothing failed, so it is
     * true then, or the transfer is ended as stuck.
     */
    abstract boolean finished();

    /** What the failure of {@link #run()} says when the event loop failed it with something other than an IOException. */
    abstract String what();

    /** The io_uring event loop to run on: one of the socket loops unless a transfer needs another. */
    IoEventLoop loop() {
        return NettyTransport.IO_URING.ioLoop();
    }

    /**
     * Registers with an io_uring event loop, starts and waits until nothing is in flight, even when interrupted:
     * returning earlier would free buffers and fds the kernel still uses. A stalled peer is not waited for forever:
     * the server's deadline shuts the socket down, which fails the socket's SQEs.
     */
    final void run() throws IOException {
        IoEventLoop loop = loop();
        loop.register(this).addListener(f -> {
            if (f.isSuccess()) {
                registration = (IoRegistration) f.getNow();
                start();
            } else {
                fail(new IOException("cannot register with the io_uring event loop: " + f.cause(), f.cause()));
            }
            finishIfIdle();
        });
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    done.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    throw cause instanceof IOException io ? io : new IOException(what() + " failed: " + cause, cause);
                }
            }
        } finally {
            IoRegistration r = registration;
            if (r != null) {
                r.cancel();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Queues an SQE; returns the user_data it carries (for IORING_OP_ASYNC_CANCEL), or 0 after failing the transfer. */
    final long submit(IoUringIoOps op) {
        long id = registration.isValid() ? registration.submit(op) : INVALID_ID;
        if (id == INVALID_ID) {
            fail(new IOException("the io_uring registration was cancelled (event loop shutting down)"));
            return INVALID_ID;
        }
        opsInFlight++;
        return id;
    }

    final void fail(IOException cause) {
        if (failure == null) {
            failure = cause;
        } else if (failure != cause) {
            failure.addSuppressed(cause);
        }
    }

    final boolean failed() {
        return failure != null;
    }

    @Override
    public final void handle(IoRegistration registration, IoEvent ioEvent) {
        IoUringIoEvent event = (IoUringIoEvent) ioEvent;
        if ((event.flags() & UringOps.CQE_F_MORE) == 0) {
            opsInFlight--;
        }
        try {
            completed(event);
        } catch (RuntimeException e) {
            fail(new IOException(what() + ": handling a completion failed: " + e, e));
        }
        finishIfIdle();
    }

    private void finishIfIdle() {
        if (opsInFlight > 0 || done.isDone()) {
            return;
        }
        if (failure != null) {
            done.completeExceptionally(failure);
        } else if (finished()) {
            done.complete(null);
        } else {
            // Nothing in flight will complete: a bug here, reported rather than waited for forever.
            done.completeExceptionally(new IllegalStateException(what() + " stopped short with nothing in flight"));
        }
    }

    @Override
    public final void close() {
        // The event loop is shutting down with the transfer unfinished.
        fail(new IOException("the io_uring event loop shut down during the " + what()));
        finishIfIdle();
    }
}
