package io.xferbench.core.net;

import java.io.IOException;
import java.time.Duration;

/** The server (or a proxy in front of it) accepted the connection but did not answer, or stopped, in time. */
public final class NoAnswerException extends IOException {
    /** @param message whom the client waited for and how long, e.g. {@code no answer from H:P within 60s} */
    public NoAnswerException(String message) {
        super(message);
    }

    private NoAnswerException(String message, NoAnswerException cause) {
        super(message, cause);
    }

    /** A timeout as these messages write it: {@code 60s}, {@code 500ms}. */
    public static String format(Duration timeout) {
        return AnswerDeadline.seconds(timeout);
    }

    /** The same failure, saying what the client was waiting for (an exchange the server's answer alone does not name). */
    public NoAnswerException waitingFor(String what) {
        return new NoAnswerException(getMessage() + " (waiting for " + what + ")", this);
    }
}
