package io.xferbench.core.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Request frames. The body length is read and bounded first, then the body in one read, so a header costs
 * two read(2) calls and a hostile one at most {@link Wire#MAX_REQUEST_BODY_BYTES}; nothing past the frame
 * (an upload body) is consumed.
 *
 * <pre>
 * u32 magic 'XFB1' | u16 body length
 * body: u8 version | u8 op | u16 flags | u8 len, method | u16 len, name (UTF-8) | u8 len, token | i64 size
 *       | u32 crc32c | i32 bufferSize [| u8 hops: version 2 only, 1..255]
 * </pre>
 * A request no proxy has forwarded (hops 0) is written as version 1, which every server reads; only a proxy's
 * forwarded frame is version 2. One encoding per request: a version 2 frame with 0 hops is refused.
 */
public final class RequestCodec {
    private RequestCodec() {
    }

    public static ByteBuffer encode(Request r) {
        byte[] method = Text.bytes(r.method(), Wire.MAX_METHOD_BYTES, "method");
        byte[] name = Text.bytes(r.name(), Wire.MAX_NAME_BYTES, "name");
        byte[] token = Text.bytes(r.token(), Wire.MAX_TOKEN_BYTES, "token");
        if (r.hops() < 0 || r.hops() > Wire.MAX_HOPS_FIELD) {
            throw new IllegalArgumentException("hops " + r.hops() + " outside 0.." + Wire.MAX_HOPS_FIELD);
        }
        boolean hops = r.hops() > 0;
        int body = 1 + 1 + 2 + 1 + method.length + 2 + name.length + 1 + token.length + 8 + 4 + 4 + (hops ? 1 : 0);
        ByteBuffer b = ByteBuffer.allocate(Wire.REQUEST_PREFIX_BYTES + body);
        b.putInt(Wire.MAGIC).putShort((short) body);
        b.put((byte) (hops ? Wire.VERSION_WITH_HOPS : Wire.VERSION_WITHOUT_HOPS)).put((byte) r.op().code()).putShort((short) r.flags());
        b.put((byte) method.length).put(method);
        b.putShort((short) name.length).put(name);
        b.put((byte) token.length).put(token);
        b.putLong(r.size()).putInt(r.crc32c()).putInt(r.bufferSize());
        if (hops) {
            b.put((byte) r.hops());
        }
        return b.flip();
    }

    /**
     * Reads one request frame from a blocking channel.
     *
     * @return the request, or null when the peer closed cleanly before sending a byte
     * @throws ProtocolException for anything malformed, with the status to answer
     */
    public static Request read(ReadableByteChannel in) throws IOException {
        ByteBuffer prefix = ByteBuffer.allocate(Wire.REQUEST_PREFIX_BYTES);
        try {
            if (!Frames.readFullyOrEof(in, prefix)) {
                return null;
            }
        } catch (EOFException e) {
            throw RequestPrefix.truncated(prefix.position());
        }
        int length = RequestPrefix.bodyLength(prefix, 0);
        ByteBuffer body = ByteBuffer.allocate(length);
        try {
            Frames.readFully(in, body);
        } catch (EOFException e) {
            throw RequestPrefix.truncated(Wire.REQUEST_PREFIX_BYTES + body.position());
        }
        return decodeBody(body.flip());
    }

    /** Decodes a request body; every length is checked against the limit and what is left. */
    public static Request decodeBody(ByteBuffer b) throws ProtocolException {
        try {
            int version = Byte.toUnsignedInt(b.get());
            if (version != Wire.VERSION_WITHOUT_HOPS && version != Wire.VERSION_WITH_HOPS) {
                throw new ProtocolException(Status.BAD_REQUEST, "unsupported protocol version " + version + " (server speaks "
                        + Wire.VERSION_WITHOUT_HOPS + " and " + Wire.VERSION_WITH_HOPS + ")");
            }
            Op op = Op.of(Byte.toUnsignedInt(b.get()));
            int flags = Short.toUnsignedInt(b.getShort());
            if ((flags & ~Flags.KNOWN) != 0) {
                throw new ProtocolException(Status.BAD_REQUEST, "unknown flags 0x" + Integer.toHexString(flags & ~Flags.KNOWN));
            }
            String method = Text.read(b, Byte.toUnsignedInt(b.get()), Wire.MAX_METHOD_BYTES, "method");
            String name = Text.read(b, Short.toUnsignedInt(b.getShort()), Wire.MAX_NAME_BYTES, "name");
            String token = Text.read(b, Byte.toUnsignedInt(b.get()), Wire.MAX_TOKEN_BYTES, "token");
            long size = b.getLong();
            int crc = b.getInt();
            int bufferSize = b.getInt();
            int hops = version == Wire.VERSION_WITH_HOPS ? Byte.toUnsignedInt(b.get()) : 0;
            if (version == Wire.VERSION_WITH_HOPS && hops == 0) {
                throw new ProtocolException(Status.BAD_REQUEST, "version 2 request with 0 proxy hops (a request no proxy forwarded is version 1)");
            }
            if (b.hasRemaining()) {
                throw new ProtocolException(Status.BAD_REQUEST, b.remaining() + " unexpected bytes after the request header");
            }
            if (size < 0) {
                throw new ProtocolException(Status.BAD_REQUEST, "negative size " + size);
            }
            if (bufferSize < 0 || bufferSize > Wire.MAX_BUFFER_SIZE) {
                throw new ProtocolException(Status.BAD_REQUEST, "buffer size " + bufferSize + " outside 0.." + Wire.MAX_BUFFER_SIZE);
            }
            if (Flags.has(flags, Flags.CACHE_COLD) && Flags.has(flags, Flags.CACHE_WARM)) {
                throw new ProtocolException(Status.BAD_REQUEST, "cache cannot be both cold and warm");
            }
            return new Request(op, method, name, token, size, crc, flags, bufferSize, hops);
        } catch (BufferUnderflowException e) {
            throw new ProtocolException(Status.BAD_REQUEST, "truncated request header");
        }
    }

    /** Length-prefixed strings, bounded before they are read and strictly decoded. */
    static final class Text {
        private Text() {
        }

        static byte[] bytes(String s, int max, String what) {
            byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
            if (b.length > max) {
                throw new IllegalArgumentException(what + " of " + b.length + " bytes exceeds the protocol limit of " + max);
            }
            return b;
        }

        static String read(ByteBuffer b, int length, int max, String what) throws ProtocolException {
            if (length > max) {
                throw new ProtocolException(Status.BAD_REQUEST, what + " of " + length + " bytes exceeds " + max);
            }
            if (length > b.remaining()) {
                throw new ProtocolException(Status.BAD_REQUEST, "truncated request header (" + what + ")");
            }
            if (b.hasArray() && ascii(b.array(), b.arrayOffset() + b.position(), length)) {
                // The common case (every name the suite makes): no decoder, buffer and copy per string.
                String s = new String(b.array(), b.arrayOffset() + b.position(), length, StandardCharsets.US_ASCII);
                b.position(b.position() + length);
                return s;
            }
            ByteBuffer slice = b.slice(b.position(), length);
            b.position(b.position() + length);
            try {
                return StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(slice)
                        .toString();
            } catch (CharacterCodingException e) {
                throw new ProtocolException(Status.BAD_REQUEST, what + " is not valid UTF-8");
            }
        }

        private static boolean ascii(byte[] bytes, int from, int length) {
            for (int i = from, end = from + length; i < end; i++) {
                if (bytes[i] < 0) {
                    return false;
                }
            }
            return true;
        }
    }
}
