package io.xferbench.server.http;

import java.nio.ByteBuffer;

/**
 * Where an HTTP/1.1 request head ends in received bytes: at its empty line. A line ends in LF, a CR before it being
 * part of the ending, so CRLF, a bare LF and a mix of them all end lines (RFC 9112 §2.2 lets a recipient accept the
 * bare LF, and netcat, printf and hand-written clients send it); a bare CR ends nothing.
 *
 * @param content where the head's last line ends, its line ending excluded: the head is the bytes before this
 * @param next    where the bytes after the head start (the next request of a pipelining client)
 */
public record HttpHeadEnd(int content, int next) {

    /** The end of the head that starts at index 0 of {@code bytes}, looking at {@code length} bytes; null if it is not whole yet. */
    public static HttpHeadEnd find(ByteBuffer bytes, int length) {
        for (int i = 0; i < length; i++) {
            if (bytes.get(i) != '\n') {
                continue;
            }
            // The LF that ends a line is followed by an empty line: LF, or CR LF.
            int blank = i + 1 < length && bytes.get(i + 1) == '\r' ? i + 2 : i + 1;
            if (blank < length && bytes.get(blank) == '\n') {
                int content = i > 0 && bytes.get(i - 1) == '\r' ? i - 1 : i;
                return new HttpHeadEnd(content, blank + 1);
            }
        }
        return null;
    }
}
