package io.xferbench.core.method.receive;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.DefinedReceiverMethod;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.nativeio.Splice;
import java.io.IOException;
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
 */
public final class SpliceReceiver implements FileReceiver {
    public static final ReceiverMethod METHOD = new DefinedReceiverMethod("splice",
            "raw splice(2) via the native shim: socket -> pipe (F_SETPIPE_SZ = bufferSize) -> file at a 64-bit offset, no user-space copy",
            SpliceReceiver::availability, Long.MAX_VALUE, "", SpliceReceiver::new);

    private final int pipeSize;
    private Splice.Pipe pipe;

    private SpliceReceiver(TransferOptions options) {
        this.pipeSize = options.bufferSize();
    }

    static Availability availability() {
        String reason = NativeSupport.unavailableReason();
        if (reason == null) {
            reason = Fds.unavailableReason();
        }
        return reason == null ? Availability.AVAILABLE : Availability.unavailable(reason);
    }

    @Override
    public long receive(SocketChannel socket, FileChannel file, Path path, long length) throws IOException {
        if (length == 0) {
            return NOT_CHECKSUMMED;
        }
        try {
            Splice.socketToFile(Fds.of(socket), Fds.of(file), 0, length, pipe());
        } catch (IOException | RuntimeException e) {
            closePipe(); // it may still hold bytes of this body
            throw e;
        }
        return NOT_CHECKSUMMED;
    }

    private Splice.Pipe pipe() throws IOException {
        if (pipe == null) {
            Splice.Pipe p = Splice.Pipe.open();
            try {
                if (p.size() != pipeSize) {
                    p.resize(pipeSize);
                }
            } catch (IOException | RuntimeException e) {
                p.close();
                throw e;
            }
            pipe = p;
        }
        return pipe;
    }

    private void closePipe() {
        if (pipe != null) {
            try {
                pipe.close();
            } catch (IOException ignored) {
                // Nothing more to do with a pipe that will not close.
            }
            pipe = null;
        }
    }

    @Override
    public void close() {
        closePipe();
    }
}
