package io.xferbench.server.fault;

/**
 * Where a request's handling passes, a test may make it fail as a real internal failure would (a class that fails to
 * load, a bug), to check what the client hears and what the log says on every I/O model. Test code only: the server
 * calls it through the wrappers of its seams that {@code ProbedSeams} builds around its own; does nothing unless a
 * test sets {@link #hook}.
 */
public final class InternalFaultProbe {
    /**
     * The points a download passes: its file work (the opens, {@code FileOpener}), its answer (its sender's check, the
     * last thing before the first write), its body (its sender's send, the head out); an upload's end (its body
     * written, before verification and placement); and the parsing of any request, whose name is not known yet (said
     * as ""); an event loop's upload chunk, on the pool before its write ({@code UPLOAD_CHUNK}, where a test may hold
     * it: the loop pauses reading meanwhile). {@code BODY_WRITE} is a failure inside the body's write: on an event
     * loop's loop method it reaches the loop through the write's future as Netty's own would; a blocking sender's
     * write throws it, as at {@code BODY}.
     */
    public enum Point { PARSE, FILE_WORK, ANSWER, BODY, BODY_WRITE, UPLOAD_END, UPLOAD_CHUNK }

    @FunctionalInterface
    public interface Hook {
        public void at(Point point, String name);
    }

    /** Set by tests only. */
    public static volatile Hook hook;

    private InternalFaultProbe() {
    }

    public static void at(Point point, String name) {
        Hook h = hook;
        if (h != null) {
            h.at(point, name);
        }
    }
}
