package io.xferbench.client.load.exchange;

import java.nio.ByteBuffer;

/** A request on a file of the run's own (an upload or a delete), by name: its bytes, and a parser for its answer. */
public interface NamedExchange {

    /** The request's bytes for {@code name}, positioned to be written; a fresh buffer each call. */
    ByteBuffer request(String name);

    ResponseParser newParser();
}
