package io.xferbench.client.report;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * What download, upload and proxy record as a report's {@code environment.settings}: the round options every command
 * shares, then the command's own (docs/results.md). Printed above tables, compared by {@code compare} and {@code merge}.
 */
public sealed interface RunSettings {

    /** Every command's round options, written first. */
    record Rounds(String server, List<Long> sizes, int repeat, int warmup, int concurrency, String verify) {
    }

    /**
     * download: the cache state each transfer starts from and how the client reads; {@code tlsCipher} is the TLS 1.3
     * suite the client offered the TLS methods ({@code --tls-cipher}), null when it could run none (no {@code --tls-ca}).
     */
    record Download(@JsonUnwrapped Rounds rounds, String cache, int bufferSize, boolean unalignedBuffer, String receiver,
                    String tlsCipher) implements RunSettings {
    }

    /** upload: whether the server fsyncs, how the client sends and where the server stores. */
    record Upload(@JsonUnwrapped Rounds rounds, boolean fsync, int bufferSize, boolean unalignedBuffer, String sender, String stored)
            implements RunSettings {
    }

    /** proxy: the scenarios, how much each round does, and what the proxy relays from. */
    record Proxy(@JsonUnwrapped Rounds rounds, List<String> scenarios, int exchangesPerConnectionPerRound,
                 int connectsPerConnectionPerRound, int bodiesPerConnectionPerRound, String upstreamMethod,
                 Integer proxyDefaultRelayBuffer, String measured) implements RunSettings {
    }
}
