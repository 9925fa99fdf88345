package io.xferbench.core.net;

import java.io.IOException;

/** The server (or a proxy in front of it) accepted the connection but did not answer, or stopped, in time. */
public final class NoAnswerException extends IOException {
    NoAnswerException(String message) {
        super(message);
    }
}
