package io.xferbench.server.proxy;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;

/**
 * Whether a proxy's upstream is the proxy itself: each connection would be relayed to the proxy again, and again,
 * until every connection slot is taken and every client is answered BUSY. Only the direct loop is seen; one through
 * a second proxy is not.
 */
public final class SelfLoop {
    private SelfLoop() {
    }

    /**
     * @param bind  the address the proxy listens on (a wildcard listens on every local address)
     * @param port  the port it listens on (0: picked when it binds, so no upstream port can be named for it)
     * @return whether a connection to {@code upstream} would reach this listener; false when the upstream does not
     *         resolve (now: it is then no loop, and each connection is told it cannot be resolved)
     */
    public static boolean reaches(String bind, int port, UpstreamAddress upstream) throws UnknownHostException, SocketException {
        if (port == 0 || port != upstream.port()) {
            return false;
        }
        InetAddress listening = InetAddress.getByName(bind);
        InetAddress[] targets;
        try {
            targets = InetAddress.getAllByName(upstream.host());
        } catch (UnknownHostException e) {
            return false;
        }
        for (InetAddress target : targets) {
            if (target.equals(listening)) {
                return true;
            }
            // 0.0.0.0 or :: listens on every local address (a v6 wildcard also takes v4 connections).
            if (listening.isAnyLocalAddress() && (target.isAnyLocalAddress() || target.isLoopbackAddress()
                    || NetworkInterface.getByInetAddress(target) != null)) {
                return true;
            }
            // Connecting to 0.0.0.0 reaches the loopback listener.
            if (target.isAnyLocalAddress() && listening.isLoopbackAddress()) {
                return true;
            }
        }
        return false;
    }
}
