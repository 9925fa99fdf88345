package io.xferbench.server.loop;

import io.netty.channel.ChannelHandlerContext;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.uring.UringEntryOps;
import io.xferbench.server.request.FileOpener;
import io.xferbench.server.request.Refused;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Where one event-loop connection's file work runs and how its result comes back to the loop: batched on the file
 * pool ({@link FileWorkBatches}), alone on it, on the loop itself (an open-on-loop model's quick open), or on the
 * loop's io_uring ring (opens and statx of single entries). Results are delivered on the connection's loop; an
 * unexpected failure in what runs there is the connection's internal error.
 */
final class EventLoopFileWork {
    /** What this needs of its connection: the loop to deliver on and the answer to the server's own failure. */
    interface Loop {
        ChannelHandlerContext ctx();

        void internalError(Throwable e);
    }

    private final Loop loop;
    private final Executor files;
    /** This loop's hand-offs to {@link #files}, batched per turn of the loop. */
    private final FileWorkBatches batches;
    /** The loop's ring for opens and statx, on netty-io-uring; else null. */
    private final UringEntryOps ring;
    private final DataDirectory data;
    /** The opens of {@link #data}'s files. */
    private final FileOpener opener;
    /** A download's file is opened on the loop first (the -inline models). */
    private final boolean openOnLoop;

    EventLoopFileWork(Loop loop, Executor files, FileWorkBatches batches, UringEntryOps ring, DataDirectory data,
            FileOpener opener, boolean openOnLoop) {
        this.loop = loop;
        this.files = files;
        this.batches = batches;
        this.ring = ring;
        this.data = data;
        this.opener = opener;
        this.openOnLoop = openOnLoop;
    }

    /** {@code then} run on the loop, an unexpected failure in it answered as the connection's internal error. */
    <T> Consumer<T> guarded(Consumer<T> then) {
        return value -> {
            try {
                then.accept(value);
            } catch (RuntimeException | Error e) {
                loop.internalError(e);
            }
        };
    }

    /**
     * Runs {@code work} on the file pool, then {@code then} with its result (or {@code failure} with what it threw) on
     * this connection's loop; handed over with the rest of this turn of the loop's file work ({@link FileWorkBatches}).
     * A result the stopped loop cannot take is closed.
     */
    <T> void offload(FileTask<T> work, Consumer<T> then, Consumer<Throwable> failure) {
        // A refused batch means the pool is shut down: the server is stopping.
        batches.submit(work, guarded(then), guarded(failure), loop.ctx()::close);
    }

    /**
     * Runs {@code work} on the file pool as a task of its own, not in a batch ({@link FileWorkBatches}): for work
     * that may take as long as a whole body's send, which must neither wait behind nor hold up other connections'.
     * {@code then} gets its result (or {@code failure} what it threw) on this connection's loop; if the loop can no
     * longer take it, {@code undelivered} runs on the pool instead. If the pool refuses the task (the server is
     * stopping), {@code undelivered} runs here and the connection closes, as {@link #offload} does.
     */
    <T> void offloadAlone(FileTask<T> work, Consumer<T> then, Consumer<Throwable> failure, Runnable undelivered) {
        Consumer<T> done = guarded(then);
        Consumer<Throwable> failed = guarded(failure);
        try {
            files.execute(() -> {
                Runnable delivery;
                try {
                    T result = work.run();
                    delivery = () -> done.accept(result);
                } catch (IOException | RuntimeException | Error e) {
                    delivery = () -> failed.accept(e);
                }
                try {
                    loop.ctx().executor().execute(delivery);
                } catch (RejectedExecutionException e) {
                    undelivered.run();
                }
            });
        } catch (RejectedExecutionException e) {
            undelivered.run();
            loop.ctx().close();
        }
    }

    void closeOnPool(AutoCloseable c) {
        try {
            files.execute(() -> Quietly.close(c));
        } catch (RejectedExecutionException e) {
            Quietly.close(c);
        }
    }

    /**
     * Opens an existing file of the data directory by a client-supplied name, with its CRC32C, then {@code then} with
     * it (or {@code failure}) on this connection's loop; see {@link #openForDownload}.
     */
    void openFile(String name, Consumer<OpenedFile> then, Consumer<Throwable> failure) {
        openForDownload(name, -1, () -> opener.openExistingIfRecorded(name), () -> opener.openExisting(name), then, failure);
    }

    /**
     * Opens the file a download or HEAD names, where the model's {@link LookupPlacement} says: {@code entry} is its
     * name in the data directory and {@code size} the size it must have (-1: any). On the ring, the descriptor comes
     * back to this loop, which checks it and looks its checksum record up in memory; anything the ring path cannot
     * settle (a name that is not a single entry, no slot free, a failed open, a record not in memory) runs
     * {@code full} on the pool, which answers as the other models do. Otherwise {@link #quickOrOnFiles}.
     */
    void openForDownload(String entry, long size, FileTask<OpenedFile> quick, FileTask<OpenedFile> full,
            Consumer<OpenedFile> then, Consumer<Throwable> failure) {
        if (ring != null && DataDirectory.isSingleEntry(entry)
                && ring.open(data.directoryFd(), entry, fd -> guarded((Integer opened) -> openedOnRing(opened, entry, size, full, then, failure)).accept(fd))) {
            return;
        }
        quickOrOnFiles(quick, full, then, failure);
    }

    /**
     * STAT of a client-supplied name, answered with {@code then} (or {@code failure}) on this loop, where the model's
     * {@link LookupPlacement} says. On the ring, a statx of a single entry (a symlink not followed) answers a regular
     * file or absence here; anything else (a name that is not a single entry, a symlink, another type, another error)
     * runs {@code full} on the pool, which answers as the other models do. Otherwise {@link #quickOrOnFiles}.
     */
    void statFile(String name, FileTask<FileStat> full, Consumer<FileStat> then, Consumer<Throwable> failure) {
        if (ring != null && DataDirectory.isSingleEntry(name) && ring.stat(data.directoryFd(), name, (res, st) -> guarded(ignored -> {
            FileStat stat = DataDirectory.statOfEntry(res, st);
            if (stat != null) {
                then.accept(stat);
            } else {
                offload(full, then, failure);
            }
        }).accept(null))) {
            return;
        }
        quickOrOnFiles(full, full, then, failure);
    }

    private void openedOnRing(int fd, String entry, long size, FileTask<OpenedFile> full, Consumer<OpenedFile> then,
            Consumer<Throwable> failure) {
        OpenedFile file = null;
        if (fd >= 0) {
            try {
                file = opener.adoptIfRemembered(entry, fd, size);
            } catch (IOException e) {
                // Not a regular file, say: the pool's open refuses it in the words the other models use. A
                // RuntimeException is a bug of the server's: thrown to the guard, an internal error, not retried.
            }
        }
        if (file != null) {
            then.accept(file);
        } else {
            offload(full, then, failure);
        }
    }

    /**
     * On an open-on-loop model, {@code quick} runs here on the loop, and only what it cannot do (it returns null: a
     * file with no checksum record, a generated file not written yet) or failed at for a reason other than the
     * client's (no such file, refused path) goes to the pool as {@code full}; on the other models {@code full} runs on
     * the pool. {@code quick} touches metadata only (path resolution, open, fstat, the checksum record), as nginx
     * opens files on its loop: a cold-metadata open blocks the loop, and every connection on it, meanwhile.
     */
    <T> void quickOrOnFiles(FileTask<T> quick, FileTask<T> full, Consumer<T> then, Consumer<Throwable> failure) {
        if (openOnLoop) {
            T result;
            try {
                result = quick.run();
            } catch (NoSuchFileException | AccessDeniedException | Refused e) {
                failure.accept(e);
                return;
            } catch (IOException e) {
                // Answered from the pool, which retries the full work and words the failure as the other models do. A
                // RuntimeException is a bug of the server's: thrown to the caller's guard, an internal error, not retried.
                result = null;
            }
            if (result != null) {
                then.accept(result);
                return;
            }
        }
        offload(full, then, failure);
    }

}
