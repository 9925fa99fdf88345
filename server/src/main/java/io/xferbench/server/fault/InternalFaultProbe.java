package io.xferbench.server.fault;

/**
 * Test seam: where a request's handling passes, a test may make it fail as a real internal failure would (a class
 * that fails to load, a bug), to check what the client hears and what the log says on every I/O model. Does nothing
 * unless a test sets {@link #hook}; one volatile read per point otherwise.
 */
public final class InternalFaultProbe {
    /**
     * The points a download passes: its file work (open and checksum), its answer's first write, its body (the head
     * sent); an upload's end (its body written, before verification and placement); and the parsing of any request,
     * whose name is not known yet (said as ""); an event loop's upload chunk, on the pool before its write
 * ({@code UPLOAD_CHUNK}, where a test may hold it: the loop pauses reading meanwhile). {@code BODY_WRITE} is the event loops' only: a failure inside the
     * body's write, which reaches them through the write's future as Netty's own would (a thread model's write
     * throws, as at {@code BODY}).
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
