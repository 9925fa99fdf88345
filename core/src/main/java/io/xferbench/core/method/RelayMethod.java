package io.xferbench.core.method;

import java.io.IOException;

/** A way to relay a proxied connection socket ↔ socket: its id on the command line, and a factory of relays. */
public interface RelayMethod {

    /** Stable id used by the proxy's --relay, the PROXY frame and result files, e.g. {@code epoll-splice}. */
    String id();

    /** One line on the syscall path. */
    String summary();

    /** Checked once per process; methods that cannot run here say why. */
    Availability availability();

    /** A relay for one connection; {@code options.bufferSize()} is the user buffer of the copying relays. */
    Relay newRelay(TransferOptions options) throws IOException;
}
