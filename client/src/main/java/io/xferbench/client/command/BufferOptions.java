package io.xferbench.client.command;

import io.xferbench.core.cli.Converters;
import picocli.CommandLine.Option;

/** The user-space buffer of the copying methods, for downloads and uploads alike. */
final class BufferOptions {
    @Option(names = "--buffer", defaultValue = "64KiB", converter = Converters.BufferSize.class,
            description = "User-space buffer of the copying methods, 1 byte to 64MiB (default: ${DEFAULT-VALUE}).")
    int buffer;

    @Option(names = "--unaligned", description = "Give channel-direct a buffer at page + 16 to show the misalignment penalty.")
    boolean unaligned;

    int bufferSize() {
        return buffer;
    }
}
