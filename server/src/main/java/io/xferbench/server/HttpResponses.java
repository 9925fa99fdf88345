package io.xferbench.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The response heads the server's HTTP/1.1 side writes, for every I/O model. */
final class HttpResponses {
    private HttpResponses() {
    }

    /**
     * The head of a 200 for a file: its size, and the CRC32C the server holds for it in {@code X-Xferbench-Crc32c}
     * so a client can verify the body; {@code sentBy} names how the body is sent ({@code X-Xferbench-Method}).
     */
    static ByteBuffer ok(long size, int crc32c, String sentBy, boolean keepAlive) {
        return ascii(String.format(Locale.ROOT, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\nContent-Type: application/octet-stream\r\n"
                + "X-Xferbench-Crc32c: %08x\r\nX-Xferbench-Method: %s\r\n%s\r\n", size, crc32c, sentBy,
                keepAlive ? "" : "Connection: close\r\n"));
    }

    /** An error answer with a short text body (none for HEAD); {@code extraHeaders} end in CRLF each. */
    static ByteBuffer error(int status, String message, boolean keepAlive, boolean head, String extraHeaders) {
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
