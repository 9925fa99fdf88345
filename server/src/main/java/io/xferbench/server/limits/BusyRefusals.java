package io.xferbench.server.limits;

import io.xferbench.core.protocol.Frames;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Tells clients over {@code --max-connections} BUSY in their own protocol: reads their first bytes, answers a native
 * BUSY frame or an HTTP 503 ({@link BusyAnswer}), sends FIN and drains what they still send before the close (closing
 * with their request unread would send RST, which can destroy the answer before they read it), all within
 * {@link #WAIT_MILLIS} per client. One platform thread does it for the whole listener, so a flood of refused clients
 * costs one thread; past {@link #QUEUED} waiting, a client is told BUSY at once in the native protocol, unread.
 */
public final class BusyRefusals implements AutoCloseable {
    private static final int QUEUED = 64;
    /** How long one refused client is given, first bytes and drain together: a trickling one cannot hold the thread. */
    public static final long WAIT_MILLIS = 200;
    private static final int DRAIN_BYTES = 64 * 1024;

    private record Refusal(SocketChannel socket, String why) {
    }

    private final BlockingQueue<Refusal> queue = new ArrayBlockingQueue<>(QUEUED);
    private final Thread thread;

    public BusyRefusals(String name) {
        thread = new Thread(this::run, name + "-refusals");
        thread.setDaemon(true);
        thread.start();
    }

    /** Answers {@code socket} BUSY with {@code why} and closes it; never blocks the caller. */
    public void refuse(SocketChannel socket, String why) {
        if (!queue.offer(new Refusal(socket, why))) {
            refuseNow(socket, why);
        }
    }

    /**
     * BUSY at once, in the protocol of what the client had sent by now ({@link ArrivedBytes}; the native frame when
     * nothing), without waiting for more: for when nothing may wait (no descriptor to spare, too many refusals queued).
     * It answered every such client in the native protocol, unread: an HTTP client read that as HTTP/0.9.
     */
    public static void refuseNow(SocketChannel socket, String why) {
        try (socket) {
            Frames.writeFully(socket, BusyAnswer.to(ArrivedBytes.take(socket), why));
        } catch (IOException ignored) {
            // The refused client is gone already.
        }
    }

    private void run() {
        try {
            while (true) {
                answer(queue.take());
            }
        } catch (InterruptedException closing) {
            // close() below closes what still waits
        }
    }

    private static void answer(Refusal r) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        try (SocketChannel socket = r.socket()) {
            ByteBuffer first = ByteBuffer.wrap(readUpTo(socket.socket(), BusyAnswer.FIRST_BYTES, deadline));
            Frames.writeFully(socket, BusyAnswer.to(first, r.why()));
            socket.shutdownOutput();
            readUpTo(socket.socket(), DRAIN_BYTES, deadline);
        } catch (IOException ignored) {
            // The refused client is gone already.
        }
    }

    /** Up to {@code max} bytes: fewer when the client closes, or sends nothing more before {@code deadline}. */
    private static byte[] readUpTo(Socket socket, int max, long deadline) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] b = new byte[max];
        int n = 0;
        try {
            while (n < max) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left < 1) {
                    break;
                }
                socket.setSoTimeout((int) left);
                int r = in.read(b, n, max - n);
                if (r <= 0) {
                    break;
                }
                n += r;
            }
        } catch (SocketTimeoutException quiet) {
            // what arrived is all there is
        }
        return Arrays.copyOf(b, n);
    }

    @Override
    public void close() {
        thread.interrupt();
        for (Refusal r; (r = queue.poll()) != null; ) {
            refuseNow(r.socket(), r.why());
        }
    }
}
