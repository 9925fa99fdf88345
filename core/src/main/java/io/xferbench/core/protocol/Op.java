package io.xferbench.core.protocol;

/** Request operations; the numeric code is what travels on the wire. */
public enum Op {
    /** Server sends a file to the client (file → socket). */
    DOWNLOAD(1),
    /** Client sends a file to the server (socket → file). */
    UPLOAD(2),
    /** Server describes itself: environment and which methods it can run, as JSON. */
    INFO(3),
    /** Server starts measuring its own CPU time and syscalls. */
    MEASURE_BEGIN(4),
    /** Server stops measuring and returns what it counted, as JSON. */
    MEASURE_END(5),
    /**
     * Sent to a proxy ({@code xferbench-server --proxy-to}) as the first frame of a connection: relay the rest of
     * the connection to the upstream server with the relay method named in {@link Request#method()} (empty: the
     * proxy's default) and {@link Request#bufferSize()}. A server that is not a proxy refuses it.
     */
    PROXY(6),
    /**
     * Server puts a download's file (name, or the generated file of size; generated on demand) into the cache state
     * the flags ask for (CACHE_COLD, CACHE_WARM, or neither: only look) and answers {@link Prepared}. Sent before a
     * timed DOWNLOAD that carries no cache flags, so the preparation is not part of the transfer's time.
     */
    PREPARE(7),
    /** Does the file {@link Request#name()} exist, and its size and mtime: answered {@link FileStat}. */
    STAT(8),
    /** Remove the file {@link Request#name()} (and its checksum record); NOT_FOUND when there is none. */
    DELETE(9);

    private final int code;

    Op(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** values() clones its array at every call, and every request is decoded through {@link #of}. */
    private static final Op[] VALUES = values();

    public static Op of(int code) throws ProtocolException {
        for (Op op : VALUES) {
            if (op.code == code) {
                return op;
            }
        }
        throw new ProtocolException(Status.BAD_REQUEST, "unknown operation code " + code);
    }
}
