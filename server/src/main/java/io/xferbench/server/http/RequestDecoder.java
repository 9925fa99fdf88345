package io.xferbench.server.http;

import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.server.request.HttpRequest;
import java.nio.ByteBuffer;

/**
 * How a request's bytes become a request, on every model: a native request's body ({@link RequestCodec#decodeBody})
 * and an HTTP head ({@link HttpRequestReader#parse}). One of the server's seams ({@code model.Seams}): a test may
 * wrap it to fail as a bug in it would; the server uses {@link #STANDARD}.
 */
public interface RequestDecoder {
    RequestDecoder STANDARD = new RequestDecoder() {
        @Override
        public Request decodeNative(ByteBuffer body) throws ProtocolException {
            return RequestCodec.decodeBody(body);
        }

        @Override
        public HttpRequest parseHttp(String head) throws HttpRequestReader.BadRequest {
            return HttpRequestReader.parse(head);
        }
    };

    /** @param body a native request's body, its prefix read already */
    Request decodeNative(ByteBuffer body) throws ProtocolException;

    /** @param head an HTTP request head up to its last line's ending */
    HttpRequest parseHttp(String head) throws HttpRequestReader.BadRequest;
}
