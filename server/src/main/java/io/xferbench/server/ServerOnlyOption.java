package io.xferbench.server;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The server's options that a proxy ({@code --proxy-to}) has no use for: given to one, they are refused rather than
 * ignored, so nobody believes a limit holds that nothing enforces.
 */
enum ServerOnlyOption {
    DATA_DIR("--data-dir", "it serves no files; the upstream's --data-dir does"),
    MAX_UPLOAD("--max-upload", "it relays upload bodies unread; set it on the upstream"),
    MAX_GENERATED("--max-generated", "the upstream generates test files; set it there"),
    MIN_RATE("--min-rate", "a relay has no transfer deadline; the upstream's --min-rate ends stalled transfers"),
    SHUTDOWN_GRACE("--shutdown-grace", "it ends its relays at once on SIGTERM"),
    IO_MODEL("--io-model", "it runs a thread per connection; --relay picks how it relays"),
    IO_URING_DEPTH("--io-uring-depth", "it sets the depth of the io_uring engine's file transfers, which only a server runs"),
    IO_URING_RING_SIZE("--io-uring-ring-size", "it sizes the rings of the server's netty-io-uring models; the io-uring relay's keep Netty's size"),
    CORK_RESPONSES("--cork-responses", "it corks the server's download answers; a proxy relays bytes as they come"),
    TLS("--tls", "a proxy relays TLS transfers as bytes; the upstream's certificate serves them"),
    TLS_CERT("--tls-cert", "a proxy relays TLS transfers as bytes; the upstream's certificate serves them"),
    TLS_KEY("--tls-key", "a proxy relays TLS transfers as bytes; the upstream's key serves them");

    final String name;
    private final String why;

    ServerOnlyOption(String name, String why) {
        this.name = name;
        this.why = why;
    }

    /** Throws the usage error for the first of these options on {@code commandLine}, which has been parsed. */
    static void refuseInProxy(CommandLine commandLine) {
        CommandLine.ParseResult parsed = commandLine.getParseResult();
        for (ServerOnlyOption o : values()) {
            if (parsed.hasMatchedOption(o.name)) {
                throw new ParameterException(commandLine, o.name + " does not apply to a proxy (--proxy-to): " + o.why);
            }
        }
    }
}
