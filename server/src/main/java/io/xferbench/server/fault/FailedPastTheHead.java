package io.xferbench.server.fault;

/**
 * An unexpected failure (a RuntimeException, an Error) after an answer's head went out on a thread model: the stream
 * can carry no error answer any more, so the connection only logs it ({@link InternalErrors}) and closes.
 */
public final class FailedPastTheHead extends RuntimeException {
    private final Throwable fault;

    /** @param thrown what the handler caught, its cause; {@code fault} the server's failure in it ({@link ServerFault}) */
    public FailedPastTheHead(Throwable fault, Throwable thrown) {
        super(thrown);
        this.fault = fault;
    }

    public Throwable fault() {
        return fault;
    }
}
