package io.xferbench.server.request;

import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;

/**
 * What a native request is to be answered with, as {@link RequestService} decided it: every check that needs no file
 * is done. An executor (a thread, or an event loop and its file pool) carries it out; the blocking part of a plan is
 * {@link FileWork}'s.
 */
public sealed interface Plan {
    /**
     * A DOWNLOAD: the file to open ({@link FileWork#open}), sent by {@code method}.
     *
     * @param inlineCache cache flags on the DOWNLOAD itself: put in that state before the header, inside the client's
     *        timing (older clients, plain use), with the residency found and left in the header and trailer
     */
    record Download(Request request, SenderMethod method, TransferOptions options, boolean inlineCache) implements Plan {
    }

    /** An UPLOAD, past the checks every model shares; {@code method} is what a thread receives it by. */
    record Upload(Request request, ReceiverMethod method, TransferOptions options) implements Plan {
    }

    /** A PREPARE: the file a DOWNLOAD would send, put in the asked cache state ({@link FileWork#prepare}). */
    record Prepare(Request request) implements Plan {
    }

    /** STAT, DELETE or INFO: one piece of file work whose frame is the answer. */
    record Files(Request request) implements Plan {
    }

    /** MEASURE_BEGIN: a window for this connection, restarting one it holds. */
    record MeasureBegin(boolean countSyscalls) implements Plan {
    }

    /** MEASURE_END: this connection's window, ended and reported. */
    record MeasureEnd() implements Plan {
    }

    /**
     * The request is answered with an error frame instead.
     *
     * @param endsConnection whether the connection closes after it (the client cannot be served on it)
     */
    record Refusal(Status status, String message, boolean endsConnection) implements Plan {
        static Refusal answered(Status status, String message) {
            return new Refusal(status, message, false);
        }

        static Refusal closing(Status status, String message) {
            return new Refusal(status, message, true);
        }
    }
}
