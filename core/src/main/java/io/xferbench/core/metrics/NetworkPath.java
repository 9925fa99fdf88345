package io.xferbench.core.metrics;

/**
 * The network path a run's connections took, both ends: recorded in every client report's environment.
 *
 * @param path   {@code loopback}, {@code veth}, or the two ends' kinds when they differ ({@code CLIENT/SERVER})
 * @param client the client's end
 * @param server the far end the client connected to (the proxy in proxy runs); null when the server did not say
 *               (a server older than this field)
 */
public record NetworkPath(String path, NetworkLink client, NetworkLink server) {

    public static NetworkPath of(NetworkLink client, NetworkLink server) {
        String path = server == null || server.kind().equals(client.kind()) ? client.kind() : client.kind() + "/" + server.kind();
        return new NetworkPath(path, client, server);
    }
}
