package io.xferbench.client.load.exchange;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** A kept-alive HTTP/1.1 GET (or HEAD) of one file whose length and CRC32C the run knows. */
public final class HttpGetExchange implements Exchange {
    private final ByteBuffer request;
    private final boolean head;
    private final long length;
    private final int crc;

    public HttpGetExchange(String hostHeader, String path, boolean head, long length, int crc) {
        String text = (head ? "HEAD " : "GET ") + path + " HTTP/1.1\r\nHost: " + hostHeader + "\r\n\r\n";
        this.request = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();
        this.head = head;
        this.length = length;
        this.crc = crc;
    }

    @Override
    public ByteBuffer request() {
        return request.duplicate();
    }

    @Override
    public String op() {
        return head ? "exist" : "download";
    }

    @Override
    public ResponseParser newParser() {
        return new HttpResponseParser(200, head, length, crc);
    }
}
