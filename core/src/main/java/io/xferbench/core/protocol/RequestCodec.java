package io.xferbench.core.protocol;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;

/**
 * Encodes and decodes {@link Request} headers. Decoding never trusts a length: every string is bounded
 * before it is read, so a hostile header costs at most {@link Wire#MAX_REQUEST_BYTES}.
 *
 * <pre>
 * u32 magic 'XFB1' | u8 version | u8 op | u16 flags | u8 len, method (ASCII) | u16 len, name (UTF-8)
 * | u8 len, token (UTF-8) | i64 size | u32 crc32c | i32 bufferSize
 * </pre>
 */
public final class RequestCodec {
    private RequestCodec() {
    }

    public static void write(DataOutput out, Request r) throws IOException {
        out.writeInt(Wire.MAGIC);
        out.writeByte(Wire.VERSION);
        out.writeByte(r.op().code());
        out.writeShort(r.flags());
        Strings.write8(out, r.method(), Wire.MAX_METHOD_BYTES);
        Strings.write16(out, r.name(), Wire.MAX_NAME_BYTES);
        Strings.write8(out, r.token(), Wire.MAX_TOKEN_BYTES);
        out.writeLong(r.size());
        out.writeInt(r.crc32c());
        out.writeInt(r.bufferSize());
    }

    /**
     * Reads one request.
     *
     * @return the request, or null on a clean end of stream before the first byte (client closed)
     * @throws ProtocolException for anything malformed, with the status to answer
     */
    public static Request read(DataInput in) throws IOException {
        int magic;
        try {
            magic = in.readInt();
        } catch (EOFException eof) {
            return null;
        }
        try {
            if (magic != Wire.MAGIC) {
                throw new ProtocolException(Status.BAD_REQUEST, String.format("bad magic 0x%08x (not an xferbench client?)", magic));
            }
            int version = in.readUnsignedByte();
            if (version != Wire.VERSION) {
                throw new ProtocolException(Status.BAD_REQUEST, "unsupported protocol version " + version + " (server speaks " + Wire.VERSION + ")");
            }
            Op op = Op.of(in.readUnsignedByte());
            int flags = in.readUnsignedShort();
            if ((flags & ~Flags.KNOWN) != 0) {
                throw new ProtocolException(Status.BAD_REQUEST, "unknown flags 0x" + Integer.toHexString(flags & ~Flags.KNOWN));
            }
            String method = Strings.read(in, in.readUnsignedByte(), Wire.MAX_METHOD_BYTES, "method");
            String name = Strings.read(in, in.readUnsignedShort(), Wire.MAX_NAME_BYTES, "name");
            String token = Strings.read(in, in.readUnsignedByte(), Wire.MAX_TOKEN_BYTES, "token");
            long size = in.readLong();
            int crc = in.readInt();
            int bufferSize = in.readInt();
            if (size < 0) {
                throw new ProtocolException(Status.BAD_REQUEST, "negative size " + size);
            }
            if (bufferSize < 0 || bufferSize > Wire.MAX_BUFFER_SIZE) {
                throw new ProtocolException(Status.BAD_REQUEST, "buffer size " + bufferSize + " outside 0.." + Wire.MAX_BUFFER_SIZE);
            }
            if (Flags.has(flags, Flags.CACHE_COLD) && Flags.has(flags, Flags.CACHE_WARM)) {
                throw new ProtocolException(Status.BAD_REQUEST, "cache cannot be both cold and warm");
            }
            return new Request(op, method, name, token, size, crc, flags, bufferSize);
        } catch (EOFException eof) {
            throw new ProtocolException(Status.BAD_REQUEST, "truncated request header");
        }
    }

    /** Length-prefixed strings with bounds checked before reading. */
    static final class Strings {
        private Strings() {
        }

        static void write8(DataOutput out, String s, int max) throws IOException {
            byte[] b = bytes(s, max);
            out.writeByte(b.length);
            out.write(b);
        }

        static void write16(DataOutput out, String s, int max) throws IOException {
            byte[] b = bytes(s, max);
            out.writeShort(b.length);
            out.write(b);
        }

        private static byte[] bytes(String s, int max) {
            byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
            if (b.length > max) {
                throw new IllegalArgumentException("string of " + b.length + " bytes exceeds the protocol limit of " + max);
            }
            return b;
        }

        static String read(DataInput in, int length, int max, String what) throws IOException {
            if (length > max) {
                throw new ProtocolException(Status.BAD_REQUEST, what + " of " + length + " bytes exceeds " + max);
            }
            byte[] b = new byte[length];
            in.readFully(b);
            try {
                return StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(b))
                        .toString();
            } catch (CharacterCodingException e) {
                throw new ProtocolException(Status.BAD_REQUEST, what + " is not valid UTF-8");
            }
        }
    }
}
