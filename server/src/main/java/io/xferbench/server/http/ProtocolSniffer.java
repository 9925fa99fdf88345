package io.xferbench.server.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * Tells the two protocols of the one port apart from a connection's first bytes: the native magic "XFB1" ends in a
 * digit, an HTTP request starts with an upper-case method and a space ("GET /", "HEAD /", "PUT /").
 */
public final class ProtocolSniffer {
    public static final int SNIFF_BYTES = 4;

    private ProtocolSniffer() {
    }

    /**
     * Reads into {@code b} until it holds at least {@link #SNIFF_BYTES}: usually one read, which takes a whole request
     * head (and what follows) when one is there, for the protocol's reader to go on from.
     *
     * @return {@code b} flipped (fewer bytes if the peer closed early), or null if it closed before sending any
     */
    public static ByteBuffer firstBytes(ReadableByteChannel in, ByteBuffer b) throws IOException {
        while (b.position() < SNIFF_BYTES) {
            if (in.read(b) < 0) {
                break;
            }
        }
        return b.position() == 0 ? null : b.flip();
    }

    public static boolean isHttp(ByteBuffer first) {
        if (first.remaining() < SNIFF_BYTES) {
            return false;
        }
        for (int i = 0; i < SNIFF_BYTES; i++) {
            byte c = first.get(first.position() + i);
            boolean letter = c >= 'A' && c <= 'Z';
            if (!letter && !(c == ' ' && i >= 3)) {
                return false;
            }
        }
        return true;
    }
}
