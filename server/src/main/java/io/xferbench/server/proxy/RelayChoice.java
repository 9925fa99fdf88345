package io.xferbench.server.proxy;

import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.protocol.Status;

/** What a first frame gets: a relay with its buffers reserved, or a refusal the client is told. */
sealed interface RelayChoice {

    /** @param reserved bytes of the proxy-wide buffer budget now held for this relay */
    record Chosen(RelayMethod method, TransferOptions options, long reserved) implements RelayChoice {
    }

    record Refused(Status status, String reason) implements RelayChoice {
    }
}
