package io.xferbench.core.protocol;

/**
 * One request. {@code name} is a file name relative to the server's data directory, or empty to let the
 * server pick (and create on demand) the generated test file of {@code size} bytes.
 *
 * @param method download/upload: the transfer method id; proxy: the relay method id (empty: the proxy's default)
 * @param name   download: file to send (empty: generated); upload: file to create or replace (required)
 * @param size   download: size of the generated file when name is empty; upload: exact body length
 * @param crc32c upload: CRC32C of the body the client will send
 * @param hops   proxies this frame has passed (each proxy that forwards it adds one; 0 from a client), so a loop of
 *               proxies ends at {@link Wire#MAX_PROXY_HOPS} instead of relaying until every slot is taken
 */
public record Request(Op op, String method, String name, String token, long size, int crc32c, int flags, int bufferSize,
                      int hops) {

    /** A request straight from a client: no proxy has forwarded it. */
    public Request(Op op, String method, String name, String token, long size, int crc32c, int flags, int bufferSize) {
        this(op, method, name, token, size, crc32c, flags, bufferSize, 0);
    }

    /**
     * The {@code method} of an INFO, MEASURE_BEGIN or MEASURE_END frame that a proxy answers about itself (its own
     * process, relays and measurement window) when it comes before any PROXY frame on a connection; the connection
     * then stays with the proxy. The same frames without it are forwarded to the upstream like any other; a server
     * that is not a proxy ignores the method (a client checks INFO's {@code "server": "xferbench-proxy"} first).
     */
    public static final String PROXY_SELF = "proxy";

    public static Request download(String method, long size, int flags, int bufferSize) {
        return new Request(Op.DOWNLOAD, method, "", "", size, 0, flags, bufferSize);
    }

    /** PREPARE the file {@code download} would send: same name, size and cache flags. */
    /** STAT or DELETE of {@code name} in the data directory. */
    public static Request onFile(Op op, String name) {
        return new Request(op, "", name, "", 0, 0, 0, 0);
    }

    public static Request prepare(Request download) {
        return new Request(Op.PREPARE, download.method(), download.name(), "", download.size(), 0, download.flags(), 0);
    }

    /** This request without its cache flags: a DOWNLOAD that a PREPARE has already put in its cache state. */
    public Request withoutCacheFlags() {
        return new Request(op, method, name, token, size, crc32c, flags & ~(Flags.CACHE_COLD | Flags.CACHE_WARM), bufferSize, hops);
    }

    /** An upload of exactly {@code size} bytes whose CRC32C is {@code crc32c}, to be stored as {@code name}. */
    public static Request upload(String method, String name, long size, int crc32c, int flags, int bufferSize) {
        return new Request(Op.UPLOAD, method, name, "", size, crc32c, flags, bufferSize);
    }

    /** First frame to a proxy: relay this connection with {@code relay} (empty: the proxy's default). */
    public static Request proxy(String relay, int bufferSize) {
        return new Request(Op.PROXY, relay, "", "", 0, 0, 0, bufferSize);
    }

    public static Request control(Op op) {
        return control(op, 0);
    }

    public static Request control(Op op, int flags) {
        return new Request(op, "", "", "", 0, 0, flags, 0);
    }

    /** INFO, MEASURE_BEGIN or MEASURE_END for the proxy itself, see {@link #PROXY_SELF}. */
    public static Request proxySelf(Op op) {
        return new Request(op, PROXY_SELF, "", "", 0, 0, 0, 0);
    }

    public Request withToken(String newToken) {
        return new Request(op, method, name, newToken, size, crc32c, flags, bufferSize, hops);
    }

    public Request withName(String newName) {
        return new Request(op, method, newName, token, size, crc32c, flags, bufferSize, hops);
    }

    /** This request as having passed {@code passed} proxies. */
    public Request withHops(int passed) {
        return new Request(op, method, name, token, size, crc32c, flags, bufferSize, passed);
    }

    /** This request as a proxy forwards it: one hop more. */
    public Request forwarded() {
        return new Request(op, method, name, token, size, crc32c, flags, bufferSize, hops + 1);
    }

    public boolean has(int flag) {
        return Flags.has(flags, flag);
    }
}
