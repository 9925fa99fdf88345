package io.xferbench.client.load.engine;

import io.xferbench.client.load.exchange.ExchangeOutcome;

/** What one load connection sends next, and what it learns from each answer; driven by its worker thread only. */
public interface ConnectionScript {

    /** @return the next request, or null when the run is being stopped: the connection then sends nothing more */
    LoadStep next();

    /** Every step sent ends here, verified or not (an I/O failure included). */
    default void completed(LoadStep step, ExchangeOutcome outcome) {
    }
}
