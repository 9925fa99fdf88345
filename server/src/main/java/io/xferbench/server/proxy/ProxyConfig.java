package io.xferbench.server.proxy;

import io.xferbench.core.method.TransferOptions;
import io.xferbench.server.config.ServerConfig;
import java.time.Duration;

/**
 * @param upstreamHost   the xferbench server every connection is relayed to
 * @param defaultRelay   relay method for connections that do not open with a PROXY frame, or whose PROXY frame
 *                       names none
 * @param bufferSize     user buffer of the copying relays when the PROXY frame does not set one
 * @param idleTimeout    a client may take this long to send its first frame (afterwards the upstream's timeouts apply)
 * @param maxBufferMemory relay buffers all connections may hold at once; a connection whose relay would pass it is BUSY
 * @param token          when non-empty, every frame the proxy reads must carry it (as the server's {@code token});
 *                       frames are forwarded with the client's token unchanged
 */
public record ProxyConfig(String bind, int port, int maxConnections, String upstreamHost, int upstreamPort, String defaultRelay,
                          int bufferSize, Duration idleTimeout, long maxBufferMemory, String token) {

    /** A proxy that requires no token. */
    public ProxyConfig(String bind, int port, int maxConnections, String upstreamHost, int upstreamPort, String defaultRelay,
                       int bufferSize, Duration idleTimeout, long maxBufferMemory) {
        this(bind, port, maxConnections, upstreamHost, upstreamPort, defaultRelay, bufferSize, idleTimeout, maxBufferMemory, "");
    }

    public static ProxyConfig loopback(int upstreamPort, String relay) {
        return new ProxyConfig("127.0.0.1", 0, 256, "127.0.0.1", upstreamPort, relay, TransferOptions.DEFAULT_BUFFER_SIZE,
                Duration.ofSeconds(30), ServerConfig.DEFAULT_MAX_BUFFER_MEMORY);
    }

    public ProxyConfig withBufferSize(int size) {
        return new ProxyConfig(bind, port, maxConnections, upstreamHost, upstreamPort, defaultRelay, size, idleTimeout, maxBufferMemory, token);
    }

    public ProxyConfig withIdleTimeout(Duration timeout) {
        return new ProxyConfig(bind, port, maxConnections, upstreamHost, upstreamPort, defaultRelay, bufferSize, timeout, maxBufferMemory, token);
    }

    public ProxyConfig withMaxBufferMemory(long bytes) {
        return new ProxyConfig(bind, port, maxConnections, upstreamHost, upstreamPort, defaultRelay, bufferSize, idleTimeout, bytes, token);
    }

    public ProxyConfig withToken(String required) {
        return new ProxyConfig(bind, port, maxConnections, upstreamHost, upstreamPort, defaultRelay, bufferSize, idleTimeout, maxBufferMemory, required);
    }
}
