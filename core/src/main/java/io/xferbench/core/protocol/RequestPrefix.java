package io.xferbench.core.protocol;

import java.nio.ByteBuffer;

/**
 * The 6-byte prefix of a request frame ({@code u32 magic | u16 body length}), checked in one place for every reader: a
 * blocking stream ({@link RequestCodec#read}), a connection's read-ahead buffer and an event loop's. The length is
 * bounded before any body byte is read, so a hostile prefix costs at most {@link Wire#MAX_REQUEST_BODY_BYTES}.
 */
public final class RequestPrefix {
    private RequestPrefix() {
    }

    /**
     * @param magic the prefix's first four bytes
     * @param length its u16 body length, unsigned
     * @return {@code length}, once magic and length are what a request may carry
     * @throws ProtocolException BAD_REQUEST otherwise
     */
    public static int bodyLength(int magic, int length) throws ProtocolException {
        if (magic != Wire.MAGIC) {
            throw new ProtocolException(Status.BAD_REQUEST, String.format("bad magic 0x%08x (not an xferbench client?)", magic));
        }
        if (length > Wire.MAX_REQUEST_BODY_BYTES) {
            throw new ProtocolException(Status.BAD_REQUEST, "request header of " + length + " bytes exceeds " + Wire.MAX_REQUEST_BODY_BYTES);
        }
        return length;
    }

    /** {@link #bodyLength(int, int)} of the prefix at {@code at} in {@code b} (absolute reads: nothing consumed). */
    public static int bodyLength(ByteBuffer b, int at) throws ProtocolException {
        return bodyLength(b.getInt(at), Short.toUnsignedInt(b.getShort(at + 4)));
    }

    /** The refusal of a stream that ended inside a request frame, after {@code have} of its bytes. */
    public static ProtocolException truncated(int have) {
        return new ProtocolException(Status.BAD_REQUEST, have < Wire.REQUEST_PREFIX_BYTES
                ? "truncated request header (" + have + " of " + Wire.REQUEST_PREFIX_BYTES + " prefix bytes)"
                : "truncated request header");
    }
}
