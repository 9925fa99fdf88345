package io.xferbench.server.http;

import java.nio.ByteBuffer;

/**
 * Tells from a request's first bytes whether its method is HEAD, for the answers written before a request is parsed or
 * when it does not parse (a busy refusal, a bad head): an answer to HEAD never has content (RFC 9110 §9.3.2), and a
 * client that sent one reads none, so a body would be taken for the start of the next answer.
 */
public final class HttpHeadMethod {
    /** With its space: a method that merely begins with "HEAD" is another method. */
    static final String PREFIX = "HEAD ";
    public static final int PREFIX_BYTES = PREFIX.length();

    private HttpHeadMethod() {
    }

    /** Whether the bytes from {@code request}'s position (not consumed) start with {@link #PREFIX}. */
    public static boolean isHead(ByteBuffer request) {
        if (request.remaining() < PREFIX_BYTES) {
            return false;
        }
        for (int i = 0; i < PREFIX_BYTES; i++) {
            if (request.get(request.position() + i) != PREFIX.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    public static boolean isHead(String head) {
        return head.startsWith(PREFIX);
    }
}
