package io.xferbench.client.load.exchange;

/**
 * How one request ended.
 *
 * @param error      null when the response was complete and its body verified; otherwise what went wrong, as the
 *                   key errors are counted under (e.g. {@code NOT_FOUND}, {@code http 404}, {@code crc mismatch})
 * @param bodyBytes  body bytes received
 * @param statusOnly accepted on its status alone: an upload whose answer said nothing of the bytes stored (a PUT to a
 *                   server that sends no {@code X-Xferbench-Crc32c}), checked, if at all, by reading the file back
 * @param methodRun  the download method the server said sent the body ({@link MethodsRun}), or null when it said none
 */
public record ExchangeOutcome(String error, long bodyBytes, boolean statusOnly, String methodRun) {
    public static ExchangeOutcome verified(long bodyBytes) {
        return new ExchangeOutcome(null, bodyBytes, false, null);
    }

    static ExchangeOutcome byStatusOnly(long bodyBytes) {
        return new ExchangeOutcome(null, bodyBytes, true, null);
    }

    public static ExchangeOutcome failed(String error, long bodyBytes) {
        return new ExchangeOutcome(error, bodyBytes, false, null);
    }

    ExchangeOutcome withMethodRun(String method) {
        return new ExchangeOutcome(error, bodyBytes, statusOnly, method);
    }

    public boolean ok() {
        return error == null;
    }

    /** The server said the file is not there (native NOT_FOUND, HTTP 404): a delete's file is gone either way. */
    public boolean absent() {
        return "NOT_FOUND".equals(error) || "http 404".equals(error);
    }
}
