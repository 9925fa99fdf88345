package io.xferbench.core.protocol;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * Work of connections other than the window's own that overlapped a measurement window: DOWNLOAD, UPLOAD and PREPARE requests (server) or relayed
 * connections (proxy) in flight when the window began or started while it was open. The measured process's CPU and
 * syscalls include that work. The far side cannot tell which of these connections belong to the same client (its
 * other {@code --concurrency} connections), so it names their peers and the client leaves out its own.
 *
 * @param connections   distinct other connections that did such work
 * @param requests      their requests that did work (DOWNLOAD, UPLOAD, PREPARE; on a proxy: relayed connections) in the window
 * @param peers         remote address ({@link #address}) → requests, for at most {@link #MAX_PEERS} of them
 * @param peersComplete whether {@code peers} lists every one of {@code connections}
 */
public record WindowOverlap(int connections, long requests, Map<String, Long> peers, boolean peersComplete) {
    /** Bounds the MEASURE_END payload (each entry is some 25 bytes of JSON; the payload limit is 1 MiB). */
    public static final int MAX_PEERS = 16_384;

    public static final WindowOverlap NONE = new WindowOverlap(0, 0, Map.of(), true);

    public WindowOverlap {
        peers = peers == null ? Map.of() : Map.copyOf(peers);
    }

    /** How a socket address is written in {@link #peers}: {@code ip:port}, the same on both ends of a connection. */
    public static String address(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    /**
     * How many of the other connections are not among {@code own} (the client's own local addresses): a lower bound
     * when the peer list was cut short, exact otherwise. 0 means the window had the process to itself.
     */
    public int foreignConnections(Collection<String> own) {
        Set<String> mine = Set.copyOf(own);
        int listedForeign = 0;
        int listedOwn = 0;
        for (String peer : peers.keySet()) {
            if (mine.contains(peer)) {
                listedOwn++;
            } else {
                listedForeign++;
            }
        }
        if (peersComplete) {
            return listedForeign;
        }
        int unlisted = connections - peers.size();
        // Unlisted ones may be ours, at most as many as our connections not seen in the list.
        int unlistedForeign = Math.max(0, unlisted - (mine.size() - listedOwn));
        return listedForeign + unlistedForeign;
    }
}
