package io.xferbench.core.testing;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback listener whose SYNs go unanswered, as a black-holed host's do: a backlog of 1, filled by connects nobody
 * accepts until Linux drops the next SYN. Where the kernel refuses or completes connects past a full queue instead
 * ({@code tcp_abort_on_overflow}, no backlog limit), {@link #dropsSyns} is false and the caller skips with
 * {@link #SKIP_REASON}.
 */
public final class UnansweredListener implements AutoCloseable {
    public static final String SKIP_REASON = "this kernel refuses or completes connects past a full accept queue "
            + "(tcp_abort_on_overflow, or no backlog limit): no unanswered connect to test against";

    private final ServerSocket listener;
    private final List<Socket> queued = new ArrayList<>();
    private final boolean dropsSyns;

    public UnansweredListener() throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        boolean dropping = false;
        for (int i = 0; i < 64 && !dropping; i++) {
            Socket s = new Socket();
            queued.add(s);
            try {
                s.connect(address, 300);
            } catch (SocketTimeoutException backlogFull) {
                dropping = true;
            } catch (ConnectException refused) {
                break; // net.ipv4.tcp_abort_on_overflow: a full queue refuses instead of dropping
            }
        }
        dropsSyns = dropping;
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Whether a new connect to {@link #port} now goes unanswered. */
    public boolean dropsSyns() {
        return dropsSyns;
    }

    @Override
    public void close() {
        for (Socket s : queued) {
            closeQuietly(s);
        }
        closeQuietly(listener);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // Closing is all that is left.
        }
    }
}
