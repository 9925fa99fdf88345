package io.xferbench.client.load.engine;

import io.xferbench.client.load.exchange.Exchange;

/** The requests of a run: a script per connection. Called from the workers' threads, so thread-safe. */
@FunctionalInterface
public interface Workload {

    ConnectionScript script(int connectionIndex);

    /** The same exchange over and over on every connection. */
    static Workload repeating(Exchange exchange) {
        return index -> () -> LoadStep.of(exchange.op(), exchange);
    }
}
