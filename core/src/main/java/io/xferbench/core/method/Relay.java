package io.xferbench.core.method;

import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * Moves bytes socket ↔ socket for one proxied connection, both directions at once (full duplex). One instance
 * serves one connection.
 */
public interface Relay extends AutoCloseable {

    /**
     * Relays {@code client} → {@code upstream} and {@code upstream} → {@code client} until the connection is
     * over, then returns. When one side ends its stream, the relay forwards that end to the other side (shutdown of
     * its output) once every byte before it was written, and keeps relaying the other direction; the connection is
     * over when both directions have ended, or at the first error in either (then both sockets are shut down so the
     * other direction stops too). The caller closes the JDK sockets afterwards; a relay closes what it opened
     * (Netty duplicates, pipes).
     *
     * @return the bytes relayed each way
     */
    Relayed relay(SocketChannel client, SocketChannel upstream) throws IOException;

    @Override
    default void close() throws IOException {
    }

    /** Bytes relayed each way, -1 where a method cannot count them (Netty's splice between channels). */
    record Relayed(long clientToUpstream, long upstreamToClient) {
    }
}
