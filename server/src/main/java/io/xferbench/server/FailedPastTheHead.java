package io.xferbench.server;

/**
 * An unexpected failure (a RuntimeException, an Error) after an answer's head went out on a thread model: the stream
 * can carry no error answer any more, so the connection only logs it ({@link InternalErrors}) and closes.
 */
final class FailedPastTheHead extends RuntimeException {
    FailedPastTheHead(Throwable cause) {
        super(cause);
    }
}
