package io.xferbench.server.model;

import io.xferbench.core.protocol.ServerDescription;
import java.net.InetAddress;

/**
 * A server's INFO answer, as the server's wiring builds it (the I/O models it knows are listed there, above the
 * executors that answer).
 */
@FunctionalInterface
public interface InfoAnswer {
    /** {@code local}: the server's address on the connection asking, whose link INFO describes. */
    ServerDescription describe(InetAddress local);
}
