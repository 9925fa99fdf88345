package io.xferbench.client;

import io.xferbench.core.metrics.NetworkLinks;
import io.xferbench.core.metrics.NetworkPath;
import io.xferbench.core.protocol.ServerDescription;
import java.net.InetAddress;
import java.net.UnknownHostException;
import picocli.CommandLine.Option;

/** Where the server is: shared by every subcommand. */
final class ServerOptions {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Server host (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "7070", converter = io.xferbench.core.cli.Converters.Port.class, description = "Server port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--token", defaultValue = "", description = "Token the server requires, if any.")
    String token;

    /** The path to this server: this machine's link towards it and the far end's, as its INFO ({@code far}) told. */
    NetworkPath networkPath(ServerDescription far) throws UnknownHostException {
        return NetworkPath.of(NetworkLinks.towards(InetAddress.getByName(host)), far.network());
    }
}
