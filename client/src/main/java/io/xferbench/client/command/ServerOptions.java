package io.xferbench.client.command;

import io.xferbench.core.cli.Converters;
import io.xferbench.core.metrics.NetworkLinks;
import io.xferbench.core.metrics.NetworkPath;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.ServerDescription;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Where the server is: shared by every subcommand. */
final class ServerOptions {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Server host (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "7070", converter = io.xferbench.core.cli.Converters.Port.class, description = "Server port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--token", defaultValue = "", description = "Token the server requires, if any.")
    String token;

    @Option(names = "--answer-timeout", defaultValue = "60s", converter = Converters.PositiveTime.class,
            description = "How long the server may leave the client waiting: to accept a connection, for INFO, STAT, DELETE, a proxy's PROXY "
                    + "answer and an upload's ready (MEASURE_BEGIN/END: a minute more, for the server's perf); a download's "
                    + "header and an upload's result this plus 1 s per MiB; a body's bytes may stop this long "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration answerTimeout;

    /** A connection to the server whose control answers are bounded by {@code --answer-timeout}. */
    XferConnection open() throws IOException {
        return XferConnection.open(host, port, token, answerTimeout);
    }

    /** The path to this server: this machine's link towards it and the far end's, as its INFO ({@code far}) told. */
    NetworkPath networkPath(ServerDescription far) throws UnknownHostException {
        return NetworkPath.of(NetworkLinks.towards(InetAddress.getByName(host)), far.network());
    }
}
