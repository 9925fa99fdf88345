package io.xferbench.client.load.exchange;

import java.nio.ByteBuffer;

/**
 * Reads one response incrementally from whatever bytes a non-blocking read delivered, and verifies it. A parser
 * never consumes bytes past its response: without pipelining, bytes left over are the server's error.
 */
public interface ResponseParser {

    /**
     * Consumes bytes from {@code in} (position to limit).
     *
     * @return true when the whole response has been read; {@link #outcome()} then says how it went
     * @throws LoadProtocolException when the bytes cannot be a valid response; the connection is then unusable
     */
    boolean feed(ByteBuffer in) throws LoadProtocolException;

    /** How the exchange ended; only meaningful once {@link #feed} returned true. */
    ExchangeOutcome outcome();

    /** Whether the server will close the connection after this response (HTTP {@code Connection: close}). */
    default boolean closesConnection() {
        return false;
    }

    /**
     * The server closed the connection with this response in flight: true when the close completes it (a response
     * whose framing ends at the close), {@link #outcome()} then says how it went; false when the close cut it short.
     */
    default boolean closed() {
        return false;
    }
}
