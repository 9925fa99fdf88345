package io.xferbench.client.load.exchange;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/** HTTP/1.1 DELETE of {@code /<name>}, kept alive: verified on 200 or 204; a 404 is an error ({@code http 404}). */
public final class HttpDeleteExchange implements NamedExchange {
    static final Set<Integer> DELETED = Set.of(200, 204);

    private final String hostHeader;

    public HttpDeleteExchange(String hostHeader) {
        this.hostHeader = hostHeader;
    }

    @Override
    public ByteBuffer request(String name) {
        return ByteBuffer.wrap(("DELETE /" + name + " HTTP/1.1\r\nHost: " + hostHeader + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public ResponseParser newParser() {
        return new HttpResponseParser(DELETED, false, -1, 0);
    }
}
