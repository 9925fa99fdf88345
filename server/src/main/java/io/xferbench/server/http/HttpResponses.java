package io.xferbench.server.http;

import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.server.request.HttpPlan;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The response heads the server's HTTP/1.1 side writes, for every I/O model. */
public final class HttpResponses {
    private HttpResponses() {
    }

    /**
     * The head of a 200 for a file: its size, and the CRC32C the server holds for it in {@code X-Xferbench-Crc32c}
     * so a client can verify the body; {@code sentBy} names how the body is sent ({@code X-Xferbench-Method}).
     */
    public static ByteBuffer ok(long size, int crc32c, String sentBy, boolean keepAlive) {
        // Concatenated, not String.format: this is written per request, and parsing a format costs more than the rest.
        String hex = Integer.toHexString(crc32c);
        return ascii("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\nContent-Type: application/octet-stream\r\n"
                + "X-Xferbench-Crc32c: " + "0".repeat(8 - hex.length()) + hex + "\r\nX-Xferbench-Method: " + sentBy + "\r\n"
                + (keepAlive ? "" : "Connection: close\r\n") + "\r\n");
    }

    /**
     * The answer to a GET whose file could not be opened or read ({@link io.xferbench.server.request.FailureAnswers#ofHttp}):
     * not found 404, forbidden 403, out of descriptors 503 with {@code Retry-After: 1} (the same GET succeeds once
     * connections go), anything else 500.
     */
    public static ByteBuffer failure(Status status, String message, boolean keepAlive, boolean head) {
        return switch (status) {
            case NOT_FOUND -> error(404, message, keepAlive, head, "");
            case FORBIDDEN -> error(403, message, keepAlive, head, "");
            case BUSY -> error(503, message, keepAlive, head, "Retry-After: 1\r\n");
            default -> error(500, message, keepAlive, head, "");
        };
    }

    /** A refusal decided by {@link io.xferbench.server.request.RequestService}, for a request that {@code keepAlive}s or not. */
    public static ByteBuffer refusal(HttpPlan.Refusal refusal, boolean keepAlive, boolean head) {
        return error(refusal.status(), refusal.message(), keepAlive, head, refusal.extraHeaders());
    }

    /** An error answer with a short text body (none for HEAD); {@code extraHeaders} end in CRLF each. */
    public static ByteBuffer error(int status, String message, boolean keepAlive, boolean head, String extraHeaders) {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        String text = "HTTP/1.1 " + status + " " + reason(status) + "\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: " + body.length + "\r\n" + extraHeaders + (keepAlive ? "" : "Connection: close\r\n") + "\r\n";
        ByteBuffer out = ByteBuffer.allocate(text.length() + (head ? 0 : body.length));
        out.put(text.getBytes(StandardCharsets.ISO_8859_1));
        if (!head) {
            out.put(body);
        }
        return out.flip();
    }

    static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            case 505 -> "HTTP Version Not Supported";
            default -> "Error";
        };
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }
}
