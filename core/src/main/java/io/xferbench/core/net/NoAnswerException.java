package io.xferbench.core.net;

import java.io.IOException;
import java.time.Duration;

/** The server (or a proxy in front of it) accepted the connection but did not answer in time. */
public final class NoAnswerException extends IOException {
    public NoAnswerException(String peer, Duration limit) {
        super("no answer from " + peer + " within " + seconds(limit));
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
