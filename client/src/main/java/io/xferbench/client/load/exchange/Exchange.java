package io.xferbench.client.load.exchange;

import java.nio.ByteBuffer;

/** One kind of request a load connection sends over and over: its bytes, and a parser for its response. */
public interface Exchange {

    /** The request's bytes, positioned to be written; a fresh view each call. */
    ByteBuffer request();

    ResponseParser newParser();

    /** The operation its requests count under in a run's per-operation figures. */
    default String op() {
        return "download";
    }
}
