package io.xferbench.client.load;

/**
 * How one request ended.
 *
 * @param error null when the response was complete and its body verified; otherwise what went wrong, as the
 *              key errors are counted under (e.g. {@code NOT_FOUND}, {@code http 404}, {@code crc mismatch})
 * @param bodyBytes body bytes received
 */
record ExchangeOutcome(String error, long bodyBytes) {
    static ExchangeOutcome verified(long bodyBytes) {
        return new ExchangeOutcome(null, bodyBytes);
    }

    static ExchangeOutcome failed(String error, long bodyBytes) {
        return new ExchangeOutcome(error, bodyBytes);
    }

    boolean ok() {
        return error == null;
    }

    /** The server said the file is not there (native NOT_FOUND, HTTP 404): a delete's file is gone either way. */
    boolean absent() {
        return "NOT_FOUND".equals(error) || "http 404".equals(error);
    }
}
