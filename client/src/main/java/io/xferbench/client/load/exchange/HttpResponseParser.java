package io.xferbench.client.load.exchange;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * An HTTP/1.1 response read incrementally: status line and headers (bounded), then a body framed by
 * {@code Content-Length} whose CRC32C is checked against the content the run placed on the server. Chunked
 * bodies are refused: file servers answer GET with a length, and a body without one cannot be verified cheaply.
 * Framing is strict (RFC 9112 6.3, 8.6): a {@code Content-Length} is digits only, copies of it must agree, and a
 * good {@code Connection: close} answer is whole only at the close, with nothing after its body: more bytes would
 * mean the length was wrong.
 */
public final class HttpResponseParser implements ResponseParser {
    static final int MAX_HEAD_BYTES = 16 * 1024;
    /**
     * Where {@code head} starts: a file server's head fits, and a parser is made per request, so a full-size buffer
     * cost 16 KiB of zeroed garbage per request (and, with 1,000 connections in flight, 16 MB the young collections
     * had to copy). It grows by doubling up to {@link #MAX_HEAD_BYTES}.
     */
    private static final int INITIAL_HEAD_BYTES = 512;

    private final Set<Integer> expectedStatus;
    private final boolean headRequest;
    private final long expectedLength;
    private final int expectedCrc;
    /** A PUT's: the CRC32C of the body sent, which the server's {@code X-Xferbench-Crc32c} must repeat when it sends one. */
    private final Integer sentCrc;
    private ByteBuffer head = ByteBuffer.allocate(INITIAL_HEAD_BYTES);
    private final BodyChecksum crc = new BodyChecksum();
    private boolean inBody;
    private int status;
    private long contentLength = -1;
    private boolean close;
    /** A good answer on a connection the server closes: only the close may follow its body. */
    private boolean awaitingClose;
    private long bodyRead;
    private Integer storedCrc;
    /** The xferbench server's {@code X-Xferbench-Method}: how it sent the body. */
    private String sentBy;
    private ExchangeOutcome outcome;

    /**
     * @param expectedLength body length a good answer has, or -1 to accept any (then the CRC is not checked)
     * @param expectedCrc    CRC32C of that body
     */
    public HttpResponseParser(int expectedStatus, boolean headRequest, long expectedLength, int expectedCrc) {
        this(Set.of(expectedStatus), headRequest, expectedLength, expectedCrc);
    }

    /** @param expectedStatus the statuses a good answer has (a PUT: created or replaced) */
    public HttpResponseParser(Set<Integer> expectedStatus, boolean headRequest, long expectedLength, int expectedCrc) {
        this(expectedStatus, headRequest, expectedLength, expectedCrc, null);
    }

    private HttpResponseParser(Set<Integer> expectedStatus, boolean headRequest, long expectedLength, int expectedCrc,
                               Integer sentCrc) {
        this.expectedStatus = Set.copyOf(expectedStatus);
        this.headRequest = headRequest;
        this.expectedLength = expectedLength;
        this.expectedCrc = expectedCrc;
        this.sentCrc = sentCrc;
    }

    /**
     * The answer to a PUT of a body whose CRC32C is {@code sentCrc}: a good status, and, when the server says what it
     * stored ({@code X-Xferbench-Crc32c}, as the xferbench server does), that CRC32C; without it the status is all.
     */
    public static HttpResponseParser forPut(Set<Integer> expectedStatus, int sentCrc) {
        return new HttpResponseParser(expectedStatus, false, -1, 0, sentCrc);
    }

    @Override
    public boolean feed(ByteBuffer in) throws LoadProtocolException {
        if (awaitingClose) {
            return nothingAfterTheBody(in);
        }
        if (outcome != null) {
            return true;
        }
        if (!inBody) {
            if (!readHead(in)) {
                return false;
            }
            inBody = true;
            if (headRequest || contentLength == 0 || status == 204 || status == 304) {
                return finish(in);
            }
        }
        int n = crc.update(in, contentLength - bodyRead);
        bodyRead += n;
        return bodyRead == contentLength && finish(in);
    }

    /** Whole at the close: a good answer the server said it would close after ends with the connection. */
    @Override
    public boolean closed() {
        return awaitingClose;
    }

    private boolean nothingAfterTheBody(ByteBuffer in) throws LoadProtocolException {
        if (in.hasRemaining()) {
            throw new LoadProtocolException("bytes after the body of a Connection: close response");
        }
        return false;
    }

    /** Moves bytes up to the blank line into {@code head}, never past it: the body stays in {@code in}. */
    private boolean readHead(ByteBuffer in) throws LoadProtocolException {
        while (in.hasRemaining()) {
            if (!head.hasRemaining()) {
                if (head.capacity() >= MAX_HEAD_BYTES) {
                    throw new LoadProtocolException("response head exceeds " + MAX_HEAD_BYTES + " bytes");
                }
                head = ByteBuffer.allocate(Math.min(MAX_HEAD_BYTES, head.capacity() * 2)).put(head.flip());
            }
            byte b = in.get();
            head.put(b);
            int p = head.position();
            if (b == '\n' && p >= 4 && head.get(p - 2) == '\r' && head.get(p - 3) == '\n' && head.get(p - 4) == '\r') {
                parseHead(new String(head.array(), 0, p - 4, StandardCharsets.ISO_8859_1));
                return true;
            }
        }
        return false;
    }

    private void parseHead(String text) throws LoadProtocolException {
        String[] lines = text.split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
            throw new LoadProtocolException("not an HTTP/1.x status line: " + abbreviate(lines[0]));
        }
        try {
            status = Integer.parseInt(statusLine[1]);
        } catch (NumberFormatException e) {
            throw new LoadProtocolException("bad status code: " + abbreviate(lines[0]));
        }
        close = statusLine[0].equals("HTTP/1.0");
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                throw new LoadProtocolException("malformed header line: " + abbreviate(lines[i]));
            }
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = contentLength(value, contentLength);
                case "transfer-encoding" -> {
                    if (!value.equalsIgnoreCase("identity")) {
                        throw new LoadProtocolException("Transfer-Encoding " + value + " is not supported (a file body needs a length)");
                    }
                }
                case "x-xferbench-crc32c" -> {
                    try {
                        storedCrc = Integer.parseUnsignedInt(value, 16);
                    } catch (NumberFormatException e) {
                        throw new LoadProtocolException("bad X-Xferbench-Crc32c: " + abbreviate(value));
                    }
                }
                case "x-xferbench-method" -> sentBy = abbreviate(value);
                case "connection" -> close = value.toLowerCase(Locale.ROOT).contains("close")
                        || (close && !value.toLowerCase(Locale.ROOT).contains("keep-alive"));
                default -> {
                    // Other headers do not change framing.
                }
            }
        }
        if (contentLength < 0 && !headRequest && status != 204 && status != 304) {
            throw new LoadProtocolException("response without Content-Length");
        }
    }

    /**
     * A Content-Length field's value: 1*DIGIT, or a list of one value repeated (RFC 9112 8.6); it must agree with
     * {@code earlier}, the value of a field before it, or -1.
     */
    private static long contentLength(String value, long earlier) throws LoadProtocolException {
        long length = earlier;
        for (String element : value.split(",", -1)) {
            String digits = element.strip();
            long n;
            try {
                n = digits.chars().allMatch(ch -> ch >= '0' && ch <= '9') ? Long.parseLong(digits) : -1;
            } catch (NumberFormatException e) {
                n = -1; // no digits, or beyond a long
            }
            if (n < 0) {
                throw new LoadProtocolException("bad Content-Length: " + abbreviate(value));
            }
            if (length >= 0 && n != length) {
                throw new LoadProtocolException("differing Content-Length values " + length + " and " + n);
            }
            length = n;
        }
        return length;
    }

    /** Decides the outcome; a good answer the server closes is not whole until the close, with nothing more in {@code in}. */
    private boolean finish(ByteBuffer in) throws LoadProtocolException {
        judge();
        if (close && outcome.ok()) {
            awaitingClose = true;
            return nothingAfterTheBody(in);
        }
        return true;
    }

    private void judge() {
        verdict();
        if (sentBy != null && !headRequest) { // a HEAD's answer names the method a GET would run: none ran
            outcome = outcome.withMethodRun(sentBy);
        }
    }

    private void verdict() {
        if (!expectedStatus.contains(status)) {
            outcome = ExchangeOutcome.failed("http " + status, bodyRead);
        } else if (expectedLength >= 0 && contentLength != expectedLength) {
            outcome = ExchangeOutcome.failed("length mismatch", bodyRead);
        } else if (!headRequest && expectedLength >= 0 && crc.value() != expectedCrc) {
            outcome = ExchangeOutcome.failed("crc mismatch", bodyRead);
        } else if (sentCrc != null && storedCrc != null && storedCrc.intValue() != sentCrc) {
            outcome = ExchangeOutcome.failed("crc mismatch", bodyRead);
        } else if (sentCrc != null && storedCrc == null) {
            outcome = ExchangeOutcome.byStatusOnly(bodyRead);
        } else {
            outcome = ExchangeOutcome.verified(bodyRead);
        }
    }

    @Override
    public ExchangeOutcome outcome() {
        return outcome;
    }

    @Override
    public boolean closesConnection() {
        return close;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
