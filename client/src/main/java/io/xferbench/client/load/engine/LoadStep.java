package io.xferbench.client.load.engine;

import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.ResponseParser;
import java.nio.ByteBuffer;

/**
 * One request a connection is about to send.
 *
 * @param op      the operation it counts under ({@code download}, {@code upload}, {@code exist}, {@code delete})
 * @param name    the file it acts on, or null for the generated file
 * @param request its bytes, positioned to be written (for an upload: the header and the whole body)
 * @param parser  reads and verifies its response
 * @param setup   a request the measured one needs first (the upload a delete removes): sent, never measured
 */
public record LoadStep(String op, String name, ByteBuffer request, ResponseParser parser, boolean setup) {

    public static LoadStep of(String op, Exchange exchange) {
        return new LoadStep(op, null, exchange.request(), exchange.newParser(), false);
    }
}
