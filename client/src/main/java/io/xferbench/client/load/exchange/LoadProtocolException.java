package io.xferbench.client.load.exchange;

/** The peer sent bytes that cannot be the response to the request in flight. */
public final class LoadProtocolException extends Exception {
    public LoadProtocolException(String message) {
        super(message);
    }
}
