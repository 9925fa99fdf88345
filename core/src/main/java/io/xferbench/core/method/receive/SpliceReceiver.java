package io.xferbench.core.method.receive;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedReceiverMethod;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.pipe.PipePool;
import io.xferbench.core.pipe.PipeSource;
import io.xferbench.core.pipe.RawSplice;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.Splice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * Raw splice(2) through the native shim, no Netty: socket → pipe → file at explicit offsets
 * ({@code Splice.socketToFile}), on the JDK's own blocking socket fd, with one pipe per connection kept between
 * uploads. The pipe is resized to the request's buffer size (F_SETPIPE_SZ; the kernel rounds up to a power-of-two
 * number of pages and the shim caps it at /proc/sys/fs/pipe-max-size), so each round trip moves at most that
 * much. No byte enters user space: the server checksums the written file afterwards. Offsets are 64-bit
 * ({@code loff_t}), so there is no 2 GiB limit.
 *
 * <p>{@code splice} opens the connection's pipe with pipe2(2) and closes it with the connection;
 * {@code splice-pooled} takes it from the process-wide {@link PipePool} for its size and gives it back (empty) when
 * the connection ends, so a new connection usually pays no pipe2/F_SETPIPE_SZ/close at all.
 */
public final class SpliceReceiver implements FileReceiver {
    public static final ReceiverMethod METHOD = new DefinedReceiverMethod("splice",
            "raw splice(2) via the native shim: socket -> pipe (F_SETPIPE_SZ = bufferSize) -> file at a 64-bit offset, no user-space copy",
            RawSplice::availability, Long.MAX_VALUE, "", MethodTraits.noTwin(MethodTraits.NO_UPLOAD_TWIN_YET).definedBy("splice"), options -> new SpliceReceiver(PipeSource.fresh(options.bufferSize())));

    public static final ReceiverMethod POOLED = new DefinedReceiverMethod("splice-pooled",
            "splice, with the connection's pipe taken from and given back to a process-wide pipe pool (thread-local first) instead of pipe2/close",
            RawSplice::availability, Long.MAX_VALUE, "", MethodTraits.noTwin(MethodTraits.NO_UPLOAD_TWIN_YET).definedBy("splice").notInJmh("PipeSetupBenchmark measures what the pool saves; its transfers are splice's"), options -> new SpliceReceiver(PipePool.shared(options.bufferSize())));

    private final PipeSource pipes;
    private Splice.Pipe pipe;

    /** A receiver taking its (one, per-connection) pipe from {@code pipes}. */
    public SpliceReceiver(PipeSource pipes) {
        this.pipes = pipes;
    }

    @Override
    public long receive(SocketChannel socket, ByteBuffer ahead, FileChannel file, Path path, long length) throws IOException {
        long from = FileReceiver.writeAhead(ahead, file);
        if (from == length) {
            return NOT_CHECKSUMMED;
        }
        try {
            Splice.socketToFile(Fds.of(socket), Fds.of(file), from, length - from, pipe());
        } catch (IOException | RuntimeException e) {
            releasePipe(false); // it may still hold bytes of this body
            throw e;
        }
        return NOT_CHECKSUMMED;
    }

    private Splice.Pipe pipe() throws IOException {
        if (pipe == null) {
            pipe = pipes.acquire();
        }
        return pipe;
    }

    private void releasePipe(boolean reusable) {
        if (pipe != null) {
            pipes.release(pipe, reusable);
            pipe = null;
        }
    }

    @Override
    public void close() {
        // Every receive that returned normally left the pipe empty.
        releasePipe(true);
    }
}
