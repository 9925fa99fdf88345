package io.xferbench.client;

import io.xferbench.core.Sizes;
import picocli.CommandLine.Option;

/** The user-space buffer of the copying methods, for downloads and uploads alike. */
final class BufferOptions {
    @Option(names = "--buffer", defaultValue = "64KiB", description = "User-space buffer of the copying methods (default: ${DEFAULT-VALUE}).")
    String buffer;

    @Option(names = "--unaligned", description = "Give channel-direct a buffer at page + 16 to show the misalignment penalty.")
    boolean unaligned;

    int bufferSize() {
        long size = Sizes.parse(buffer);
        if (size <= 0 || size > io.xferbench.core.protocol.Wire.MAX_BUFFER_SIZE) {
            throw new IllegalArgumentException("--buffer must be 1.." + io.xferbench.core.protocol.Wire.MAX_BUFFER_SIZE + " bytes");
        }
        return (int) size;
    }
}
