package io.xferbench.client.load;

/** The peer sent bytes that cannot be the response to the request in flight. */
final class LoadProtocolException extends Exception {
    LoadProtocolException(String message) {
        super(message);
    }
}
