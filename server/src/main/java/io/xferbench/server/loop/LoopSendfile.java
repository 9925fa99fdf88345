package io.xferbench.server.loop;

import io.netty.channel.Channel;
import io.netty.channel.unix.UnixChannel;
import io.xferbench.core.method.SourceFile;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.nativeio.Sendfile;

import java.util.concurrent.atomic.LongAdder;

/**
 * A small download body sent from the io_uring loop by sendfile(2), after its head went with MSG_MORE
 * ({@link EventLoopAnswerHead}): page cache to socket inside the kernel, as the epoll loop sends every body. The
 * ring's own ways cost more: a SPLICE pair runs on io-wq worker threads (io_uring has no non-blocking splice), and a
 * body read into a buffer and written copies it twice, which on a host where copying is dear made the io_uring models
 * the slowest (docs/load.md, "io_uring: small bodies by sendfile from the loop"). The socket is made non-blocking when
 * the connection starts, so a full socket answers EAGAIN instead of stalling the loop; what it did not take goes
 * through the ring. The ring's reads and writes on a non-blocking socket still wait by polling (sockets support
 * NOWAIT), so nothing else about the connection changes.
 */
public final class LoopSendfile {
    /** The shim and the JDK's file descriptors are needed; without them bodies go through the ring, as before. */
    static final boolean AVAILABLE = NativeSupport.available() && Fds.unavailableReason() == null;
    /** Bodies the socket took only part of (the rest went through the ring): how a test sees that path taken. */
    private static final LongAdder CUT_SHORT = new LongAdder();

    private LoopSendfile() {
    }

    /** Makes the channel's socket non-blocking; false (the connection keeps the ring's path) where that fails. */
    public static boolean prepare(Channel channel) {
        if (!AVAILABLE || !(channel instanceof UnixChannel unix)) {
            return false;
        }
        try {
            Fds.setNonBlocking(unix.fd().intValue(), true);
            return true;
        } catch (NativeException e) {
            return false;
        }
    }

    /**
     * Sends the file from its start while the socket takes it. Returns the bytes sent: all of them, or fewer when the
     * socket filled or the file ended early (the caller sends the rest, and sees a short file there).
     */
    public static long send(Channel channel, SourceFile file) throws NativeException {
        int socketFd = ((UnixChannel) channel).fd().intValue();
        int fileFd = Fds.of(file.channel());
        long position = 0;
        while (position < file.size()) {
            long n = Sendfile.send(socketFd, fileFd, position, file.size() - position);
            if (n <= 0) {
                CUT_SHORT.increment();
                break;
            }
            position += n;
        }
        return position;
    }

    static long cutShort() {
        return CUT_SHORT.sum();
    }
}
