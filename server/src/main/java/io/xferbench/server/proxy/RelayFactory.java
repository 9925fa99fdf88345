package io.xferbench.server.proxy;

import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.TransferOptions;
import java.io.IOException;

/**
 * Builds one connection's relay once its upstream is connected. The proxy is built with {@link #DIRECT}; a test
 * wraps it to make a relay fail as a real one would, while it is built or once it relays.
 */
@FunctionalInterface
interface RelayFactory {
    RelayFactory DIRECT = RelayMethod::newRelay;

    Relay newRelay(RelayMethod method, TransferOptions options) throws IOException;
}
