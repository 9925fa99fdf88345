package io.xferbench.server.proxy;

import io.xferbench.core.net.NoAnswerException;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.limits.ConnectionRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/** Connects a client's connection to the upstream within --idle-timeout; when it cannot, tells the client why. */
final class UpstreamDial {
    private final ProxyConfig config;
    private final ConnectionRegistry registry;
    private final UpstreamConnector connector;

    UpstreamDial(ProxyConfig config, ConnectionRegistry registry, UpstreamConnector connector) {
        this.config = config;
        this.registry = registry;
        this.connector = connector;
    }

    /**
     * @param relayBudget the connection's deadline once connected
     * @return the connected upstream, or null when the client has been told it cannot be reached
     */
    SocketChannel connect(SocketChannel client, int conn, Duration relayBudget) throws IOException {
        String upstreamName = config.upstreamHost() + ":" + config.upstreamPort();
        // Resolved per connection: a name that does not resolve now may later.
        InetSocketAddress address = new InetSocketAddress(config.upstreamHost(), config.upstreamPort());
        if (address.isUnresolved()) {
            ProxyAnswers.error(client, Status.SERVER_ERROR, "proxy cannot reach upstream " + upstreamName + ": cannot resolve host");
            return null;
        }
        IOException failure;
        // A connect that stalls is a stall inside a request: bounded by --idle-timeout, not the kernel's SYN retries
        // (about two minutes of a thread and a slot per client, while the client's own timeout blamed the proxy).
        // The reaper interrupts a late connect: no timer, and no syscall more per connection than the connect.
        registry.enter(conn, ConnectionRegistry.State.CONNECTING, config.idleTimeout());
        try {
            return connector.connect(address);
        } catch (ClosedByInterruptException late) {
            Thread.interrupted();
            failure = new IOException("did not accept within " + NoAnswerException.format(config.idleTimeout()));
        } catch (IOException e) {
            failure = e;
        } finally {
            // Before the answer below: past CONNECTING, the reaper no longer interrupts this thread.
            registry.connected(conn, relayBudget);
        }
        ProxyAnswers.error(client, Status.SERVER_ERROR, "proxy cannot reach upstream " + upstreamName + ": " + failure.getMessage());
        return null;
    }
}
