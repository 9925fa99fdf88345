package io.xferbench.server;

import java.nio.file.Path;
import java.time.Duration;

/**
 * @param token          when non-empty, every request must carry it (compared in constant time)
 * @param maxGenerated   largest generated test file a client may ask for
 * @param idleTimeout    a connection silent this long between or inside request headers is closed
 */
public record ServerConfig(Path dataDir, String bind, int port, int maxConnections, String token, long maxGenerated,
                           Duration idleTimeout) {

    public static ServerConfig loopback(Path dataDir) {
        return new ServerConfig(dataDir, "127.0.0.1", 0, 256, "", 64L << 30, Duration.ofSeconds(30));
    }

    public ServerConfig withPort(int newPort) {
        return new ServerConfig(dataDir, bind, newPort, maxConnections, token, maxGenerated, idleTimeout);
    }

    public ServerConfig withToken(String newToken) {
        return new ServerConfig(dataDir, bind, port, maxConnections, newToken, maxGenerated, idleTimeout);
    }

    public ServerConfig withMaxConnections(int max) {
        return new ServerConfig(dataDir, bind, port, max, token, maxGenerated, idleTimeout);
    }
}
