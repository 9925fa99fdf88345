package io.xferbench.server.config;

import io.xferbench.core.protocol.Request;
import io.xferbench.core.tls.TlsEndpoint;
import java.nio.file.Path;
import java.time.Duration;

/**
 * @param token          when non-empty, every request must carry it (compared in constant time)
 * @param maxGenerated   largest generated test file a client may ask for
 * @param maxUpload      largest upload accepted
 * @param idleTimeout    a connection may wait this long for (or inside) a request header, and a transfer's body may
 *                       stand still this long
 * @param minRate        a transfer of n bytes must finish within idleTimeout + n / minRate (bytes per second), n the
 *                       body's own length (a named file's, not the request's size)
 * @param shutdownGrace  on SIGTERM, in-flight transfers get this long to finish
 * @param maxBufferMemory transfer buffers all connections may hold at once; a request that would pass it is BUSY
 * @param ioModel        how connections get threads: an id of {@code ServerModels} ({@code platform}, {@code virtual})
 * @param corkResponses  each download's answer is corked (TCP_CORK), so its parts leave in as few segments as they need
 *                       (off by default: it pays on loopback and costs over a 1,500-byte MTU, docs/load.md)
 * @param tls            the server's TLS end, lent to the TLS methods' senders; null for a server without a certificate
 *                       (xferbench-server without --tls or --tls-cert, or one started in-process by a test), which refuses them
 */
public record ServerConfig(Path dataDir, String bind, int port, int maxConnections, String token, long maxGenerated,
                           long maxUpload, Duration idleTimeout, long minRate, Duration shutdownGrace, long maxBufferMemory,
                           String ioModel, boolean corkResponses, TlsEndpoint tls) {

    public static final long DEFAULT_MAX_BUFFER_MEMORY = 1L << 30;
    /** The I/O model a server runs unless told otherwise (an id of {@code ServerModels}). */
    public static final String DEFAULT_IO_MODEL = "platform";
    /**
     * A window's begin or end waits for perf to attach or to print and exit (its counter bounds that at 35 s); INFO for
     * its probes.
     */
    private static final Duration WINDOW_CONTROL_BUDGET = Duration.ofMinutes(1);

    public static ServerConfig loopback(Path dataDir) {
        return new ServerConfig(dataDir, "127.0.0.1", 0, 256, "", 64L << 30, 64L << 30, Duration.ofSeconds(30), 1L << 20,
                Duration.ofSeconds(10), DEFAULT_MAX_BUFFER_MEMORY, DEFAULT_IO_MODEL, false, null);
    }

    public ServerConfig withTls(TlsEndpoint endpoint) {
        return new ServerConfig(dataDir, bind, port, maxConnections, token, maxGenerated, maxUpload, idleTimeout, minRate, shutdownGrace,
                maxBufferMemory, ioModel, corkResponses, endpoint);
    }

    public ServerConfig withIoModel(String model) {
        return new ServerConfig(dataDir, bind, port, maxConnections, token, maxGenerated, maxUpload, idleTimeout, minRate, shutdownGrace,
                maxBufferMemory, model, corkResponses, tls);
    }

    public ServerConfig withCorkResponses(boolean cork) {
        return new ServerConfig(dataDir, bind, port, maxConnections, token, maxGenerated, maxUpload, idleTimeout, minRate, shutdownGrace,
                maxBufferMemory, ioModel, cork, tls);
    }

    public ServerConfig withMaxBufferMemory(long max) {
        return new ServerConfig(dataDir, bind, port, maxConnections, token, maxGenerated, maxUpload, idleTimeout, minRate, shutdownGrace, max, ioModel, corkResponses, tls);
    }

    public ServerConfig withPort(int newPort) {
        return new ServerConfig(dataDir, bind, newPort, maxConnections, token, maxGenerated, maxUpload, idleTimeout, minRate, shutdownGrace, maxBufferMemory, ioModel, corkResponses, tls);
    }

    public ServerConfig withToken(String newToken) {
        return new ServerConfig(dataDir, bind, port, maxConnections, newToken, maxGenerated, maxUpload, idleTimeout, minRate, shutdownGrace, maxBufferMemory, ioModel, corkResponses, tls);
    }

    public ServerConfig withMaxConnections(int max) {
        return new ServerConfig(dataDir, bind, port, max, token, maxGenerated, maxUpload, idleTimeout, minRate, shutdownGrace, maxBufferMemory, ioModel, corkResponses, tls);
    }

    public ServerConfig withIdleTimeout(Duration timeout) {
        return new ServerConfig(dataDir, bind, port, maxConnections, token, maxGenerated, maxUpload, timeout, minRate, shutdownGrace, maxBufferMemory, ioModel, corkResponses, tls);
    }

    public ServerConfig withMinRate(long bytesPerSecond) {
        return new ServerConfig(dataDir, bind, port, maxConnections, token, maxGenerated, maxUpload, idleTimeout, bytesPerSecond, shutdownGrace, maxBufferMemory, ioModel, corkResponses, tls);
    }

    public ServerConfig withMaxUpload(long max) {
        return new ServerConfig(dataDir, bind, port, maxConnections, token, maxGenerated, max, idleTimeout, minRate, shutdownGrace, maxBufferMemory, ioModel, corkResponses, tls);
    }

    public ServerConfig withShutdownGrace(Duration grace) {
        return new ServerConfig(dataDir, bind, port, maxConnections, token, maxGenerated, maxUpload, idleTimeout, minRate, grace, maxBufferMemory, ioModel, corkResponses, tls);
    }

    /**
     * Longest {@code request} may take before the connection is dropped as stalled: a transfer's budget, or at least a
     * minute for an answer that is the server's own slow work, not the client's: a measurement window's begin and end,
     * which wait on perf (1.7 s to stop here), and INFO, which reads the environment and probes every method (over a
     * second on a loaded machine, where a 1 s idle timeout closed the connection before its answer).
     */
    public Duration requestBudget(Request request) {
        return switch (request.op()) {
            case MEASURE_BEGIN, MEASURE_END, INFO -> idleTimeout.compareTo(WINDOW_CONTROL_BUDGET) > 0 ? idleTimeout : WINDOW_CONTROL_BUDGET;
            default -> transferBudget(request.size());
        };
    }

    /** Longest a transfer of {@code bytes} may take before the connection is dropped as stalled (at most a day). */
    public Duration transferBudget(long bytes) {
        long seconds = Math.min(bytes / Math.max(1, minRate), Duration.ofDays(1).toSeconds());
        return idleTimeout.plusSeconds(seconds);
    }
}
