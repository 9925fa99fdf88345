package io.xferbench.server.request;

import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.logging.Logger;

/**
 * The one mapping from a failed request's work to its answer, for every I/O model: a refusal its status, a missing file
 * NOT_FOUND, a denied one FORBIDDEN (and a log line), any other I/O failure {@link FailureStatus}'s, the server's own
 * failure an internal error. Texts name files relative to the data directory ({@link ClientMessages}).
 */
public final class FailureAnswers {
    private static final Logger LOG = Logger.getLogger(FailureAnswers.class.getName());

    private final Path root;

    public FailureAnswers(Path root) {
        this.root = root;
    }

    /** @param who the connection, as the log line of a denied file names it */
    public FailureAnswer of(Throwable e, String who) {
        return e instanceof IOException io ? of(io, who) : new FailureAnswer.Internal(e);
    }

    /** An I/O failure of a request's work, always answered: the stream is intact. */
    public FailureAnswer.Answered of(IOException e, String who) {
        return switch (e) {
            case Refused r -> new FailureAnswer.Answered(r.status, r.getMessage());
            case NoSuchFileException n -> new FailureAnswer.Answered(Status.NOT_FOUND, ClientMessages.of(n, root));
            case AccessDeniedException a -> {
                LOG.info(() -> who + ": refused " + a.getFile() + ": " + ClientMessages.reason(a));
                yield new FailureAnswer.Answered(Status.FORBIDDEN, ClientMessages.of(a, root));
            }
            default -> new FailureAnswer.Answered(FailureStatus.of(e), ClientMessages.of(e, root));
        };
    }

    /**
     * The answer to a GET or HEAD whose file could not be opened, named by its request path: NOT_FOUND, FORBIDDEN (no log
     * line: a web client asking for what is not there is not news) or {@link FailureStatus}'s.
     */
    public FailureAnswer.Answered ofHttp(IOException e, String path) {
        return switch (e) {
            case NoSuchFileException n -> new FailureAnswer.Answered(Status.NOT_FOUND, path + ": no such file");
            case AccessDeniedException a -> new FailureAnswer.Answered(Status.FORBIDDEN, path + ": " + ClientMessages.reason(a));
            default -> new FailureAnswer.Answered(FailureStatus.of(e), path + ": " + ClientMessages.of(e, root));
        };
    }
}
