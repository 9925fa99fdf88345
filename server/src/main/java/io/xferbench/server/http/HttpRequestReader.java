package io.xferbench.server.http;

import io.xferbench.server.request.HttpRequest;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads HTTP/1.1 request heads from a blocking channel, one after another on a kept-alive connection; their lines end
 * in CRLF or a bare LF ({@link HttpHeadEnd}). Reads in blocks, keeps what arrived past a head for the next one
 * (pipelining), and bounds everything: a head over {@link #MAX_HEAD_BYTES} is refused with 431 before more is read.
 * Bodies are not supported (a request that announces one is refused), so nothing but heads ever sits in the buffer.
 * What another parser could read otherwise is refused with 400 and the connection closed: obs-fold, a field name that
 * is not a token up to its colon, a bare CR or another control character.
 */
public final class HttpRequestReader {
    public static final int MAX_HEAD_BYTES = 8 * 1024;
    private static final int MAX_HEADERS = 64;

    /** A request the server answers with {@code status} and then closes the connection. */
    public static final class BadRequest extends IOException {
        public final int status;
        /** The request's method is HEAD ({@link HttpHeadMethod}): the answer has no body. */
        public final boolean headMethod;

        BadRequest(int status, String message, boolean headMethod) {
            super(message);
            this.status = status;
            this.headMethod = headMethod;
        }
    }

    private final ReadableByteChannel in;
    private final RequestDecoder decoder;
    private final ByteBuffer buffer = ByteBuffer.allocate(MAX_HEAD_BYTES);

    /**
     * @param sniffed bytes already read from the connection to tell the protocol, served first
     * @param decoder what parses each head ({@link RequestDecoder#STANDARD}: {@link #parse})
     */
    public HttpRequestReader(ReadableByteChannel in, ByteBuffer sniffed, RequestDecoder decoder) {
        this.in = in;
        this.decoder = decoder;
        buffer.put(sniffed);
    }

    /** @return the next request head, or null when the client closed cleanly between requests */
    public HttpRequest next() throws IOException {
        HttpHeadEnd end;
        while ((end = HttpHeadEnd.find(buffer, buffer.position())) == null) {
            if (!buffer.hasRemaining()) {
                throw new BadRequest(431, "request head exceeds " + MAX_HEAD_BYTES + " bytes", startsHead());
            }
            int n = in.read(buffer);
            if (n < 0) {
                if (buffer.position() == 0) {
                    return null;
                }
                throw new BadRequest(400, "connection closed inside a request head", startsHead());
            }
        }
        String head = new String(buffer.array(), 0, end.content(), StandardCharsets.ISO_8859_1);
        // Keep what follows the blank line for the next request.
        buffer.flip().position(end.next());
        buffer.compact();
        return decoder.parseHttp(head);
    }

    /** Whether the bytes read so far start a HEAD request, for a head that is refused before it is parsed. */
    private boolean startsHead() {
        return HttpHeadMethod.isHead(buffer.duplicate().flip());
    }

    /** @param head a request head up to its last line's ending ({@link HttpHeadEnd}); lines end in CRLF or a bare LF */
    public static HttpRequest parse(String head) throws BadRequest {
        boolean headMethod = HttpHeadMethod.isHead(head);
        String[] lines = lines(head);
        String[] start = requestLine(lines[0], headMethod);
        String version = start[2];
        Map<String, String> headers = headers(lines, headMethod);
        checkHostAndNoBody(version, headers, headMethod);
        return request(start, headers, headMethod);
    }

    /** The head's lines without their endings. */
    private static String[] lines(String head) {
        String[] lines = head.split("\n", -1);
        // The last line's ending is not in the head: a CR that ends it is a bare one.
        for (int i = 0; i < lines.length - 1; i++) {
            if (lines[i].endsWith("\r")) {
                lines[i] = lines[i].substring(0, lines[i].length() - 1);
            }
        }
        return lines;
    }

    /** @return the request line's method, target and version, checked (a supported version) */
    private static String[] requestLine(String line, boolean headMethod) throws BadRequest {
        // A CR left inside a line is a bare CR, which RFC 9112 §2.2 lets a recipient refuse: a peer that takes it for a
        // line end reads other headers (a Content-Length) than this parser, so it is refused, as any control character.
        if (hasControl(line, false)) {
            throw new BadRequest(400, "malformed request line: a bare CR or another control character", headMethod);
        }
        String[] start = line.split(" ", -1);
        if (start.length != 3 || start[0].isEmpty() || !start[0].chars().allMatch(c -> c >= 'A' && c <= 'Z')) {
            throw new BadRequest(400, "malformed request line", headMethod);
        }
        String version = start[2];
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
            throw new BadRequest(505, "HTTP version " + abbreviate(version) + " is not supported (HTTP/1.1 is)", headMethod);
        }
        return start;
    }

    /** @return the header fields after the request line, names lower-cased, repeated fields joined with ", " */
    private static Map<String, String> headers(String[] lines, boolean headMethod) throws BadRequest {
        if (lines.length - 1 > MAX_HEADERS) {
            throw new BadRequest(431, "more than " + MAX_HEADERS + " header lines", headMethod);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            int colon = line.indexOf(':');
            checkHeaderLine(line, colon, headMethod);
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            headers.merge(name, value, (a, b) -> a + ", " + b);
        }
        return headers;
    }

    /** Refuses a header line another parser could read otherwise; {@code colon} is its first colon's index. */
    private static void checkHeaderLine(String line, int colon, boolean headMethod) throws BadRequest {
        // A line starting with whitespace is obs-fold, refused (RFC 9112 §5.2).
        if (colon <= 0 || line.charAt(0) == ' ' || line.charAt(0) == '\t') {
            throw new BadRequest(400, "malformed header line", headMethod);
        }
        // The name is a token up to the colon: "Content-Length\t:" is not Content-Length here, so a peer that
        // trims it would frame a body this server reads as the next request (RFC 9112 §5.1 requires the 400).
        if (!isToken(line, colon)) {
            throw new BadRequest(400, "malformed header line: the field name must be a token directly followed by ':'", headMethod);
        }
        if (hasControl(line, true)) {
            throw new BadRequest(400, "malformed header line: a bare CR or another control character in a field value", headMethod);
        }
    }

    private static void checkHostAndNoBody(String version, Map<String, String> headers, boolean headMethod)
            throws BadRequest {
        if (version.equals("HTTP/1.1") && !headers.containsKey("host")) {
            throw new BadRequest(400, "HTTP/1.1 request without Host", headMethod);
        }
        if (headers.containsKey("transfer-encoding") || !headers.getOrDefault("content-length", "0").equals("0")) {
            throw new BadRequest(400, "request bodies are not served over HTTP here (use the native protocol to upload)", headMethod);
        }
    }

    /** @param start the checked request line ({@link #requestLine}) */
    private static HttpRequest request(String[] start, Map<String, String> headers, boolean headMethod)
            throws BadRequest {
        String target = start[1];
        if (!target.startsWith("/")) {
            throw new BadRequest(400, "request target must be an absolute path", headMethod);
        }
        int q = target.indexOf('?');
        String rawPath = q < 0 ? target : target.substring(0, q);
        try {
            String path = URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
            Map<String, String> query = q < 0 ? new LinkedHashMap<>() : query(target.substring(q + 1));
            return new HttpRequest(start[0], path, query, headers, keepAlive(start[2], headers));
        } catch (IllegalArgumentException e) {
            throw new BadRequest(400, "malformed percent-encoding", headMethod);
        }
    }

    /**
     * @param raw the target's part after its '?'
     * @throws IllegalArgumentException on malformed percent-encoding
     */
    private static Map<String, String> query(String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            query.put(k, v);
        }
        return query;
    }

    private static boolean keepAlive(String version, Map<String, String> headers) {
        String connection = headers.getOrDefault("connection", "").toLowerCase(Locale.ROOT);
        return version.equals("HTTP/1.1") ? !connection.contains("close") : connection.contains("keep-alive");
    }

    /** Whether the first {@code length} chars of {@code s} are a token (RFC 9110 §5.6.2: tchar, at least one). */
    private static boolean isToken(String s, int length) {
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            boolean tchar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!tchar) {
                return false;
            }
        }
        return length > 0;
    }

    /**
     * Whether {@code s} holds a control character (below SP, or DEL), a horizontal tab excepted where {@code tabAllowed}
     * (a field value may hold one, RFC 9110 §5.5).
     */
    private static boolean hasControl(String s, boolean tabAllowed) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < ' ' && !(tabAllowed && c == '\t')) || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    private static String abbreviate(String s) {
        return s.length() <= 16 ? s : s.substring(0, 16) + "...";
    }
}
