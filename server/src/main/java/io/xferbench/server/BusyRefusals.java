package io.xferbench.server;

import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Tells clients over {@code --max-connections} BUSY in their own protocol: reads their first bytes (briefly), answers
 * a native BUSY frame or an HTTP 503, sends FIN and drains what they still send before the close (closing with their
 * request unread would send RST, which can destroy the answer before they read it). One platform thread does it for
 * the whole listener, so a flood of refused clients costs one thread; past {@link #QUEUED} waiting, a client is told
 * BUSY at once in the native protocol, unread.
 */
final class BusyRefusals implements AutoCloseable {
    private static final int QUEUED = 64;
    /** How long a refused client's first bytes, and then its FIN, are waited for. */
    private static final int WAIT_MILLIS = 200;
    private static final int DRAIN_BYTES = 64 * 1024;

    private record Refusal(SocketChannel socket, String why) {
    }

    private final BlockingQueue<Refusal> queue = new ArrayBlockingQueue<>(QUEUED);
    private final Thread thread;

    BusyRefusals(String name) {
        thread = new Thread(this::run, name + "-refusals");
        thread.setDaemon(true);
        thread.start();
    }

    /** Answers {@code socket} BUSY with {@code why} and closes it; never blocks the caller. */
    void refuse(SocketChannel socket, String why) {
        if (!queue.offer(new Refusal(socket, why))) {
            refuseUnread(socket, why);
        }
    }

    /** BUSY in the native protocol, at once, without reading: for when nothing may wait (no descriptor to spare). */
    static void refuseUnread(SocketChannel socket, String why) {
        try (socket) {
            Frames.writeFully(socket, ResponseCodec.error(Status.BUSY, why));
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
        try (SocketChannel socket = r.socket()) {
            socket.socket().setSoTimeout(WAIT_MILLIS);
            InputStream in = socket.socket().getInputStream();
            ByteBuffer first = ByteBuffer.wrap(readUpTo(in, ProtocolSniffer.SNIFF_BYTES));
            Frames.writeFully(socket, ProtocolSniffer.isHttp(first)
                    ? HttpResponses.error(503, r.why(), false, false, "Retry-After: 1\r\n")
                    : ResponseCodec.error(Status.BUSY, r.why()));
            socket.shutdownOutput();
            readUpTo(in, DRAIN_BYTES);
        } catch (IOException ignored) {
            // The refused client is gone already.
        }
    }

    /** Up to {@code max} bytes: fewer when the client closes or sends nothing more within the wait. */
    private static byte[] readUpTo(InputStream in, int max) throws IOException {
        byte[] b = new byte[max];
        int n = 0;
        try {
            for (int r; n < max && (r = in.read(b, n, max - n)) > 0; ) {
                n += r;
            }
        } catch (SocketTimeoutException quiet) {
            // what arrived is all there is
        }
        return java.util.Arrays.copyOf(b, n);
    }

    @Override
    public void close() {
        thread.interrupt();
        for (Refusal r; (r = queue.poll()) != null; ) {
            refuseUnread(r.socket(), r.why());
        }
    }
}
