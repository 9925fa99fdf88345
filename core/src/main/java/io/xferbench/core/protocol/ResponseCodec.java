package io.xferbench.core.protocol;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Response headers and trailers.
 *
 * <pre>
 * header:   u32 magic | u8 status | (status != OK: u16 len, message)
 * download: header | i64 length | u32 crc32c | i32 residency-before (per mille, -1 unknown) | body | trailer
 * trailer:  u8 status | i64 server nanos | i32 residency-after | (status != OK: u16 len, message)
 * json:     header | u32 len | UTF-8 JSON
 * </pre>
 */
public final class ResponseCodec {
    private ResponseCodec() {
    }

    public static void writeError(DataOutput out, Status status, String message) throws IOException {
        out.writeInt(Wire.MAGIC);
        out.writeByte(status.code());
        writeMessage(out, message);
    }

    public static void writeOk(DataOutput out) throws IOException {
        out.writeInt(Wire.MAGIC);
        out.writeByte(Status.OK.code());
    }

    /** Reads a header; throws {@link RemoteException} carrying the server's status and message when not OK. */
    public static void readHeader(DataInput in) throws IOException {
        int magic = in.readInt();
        if (magic != Wire.MAGIC) {
            throw new ProtocolException(Status.BAD_REQUEST, String.format("bad response magic 0x%08x (not an xferbench server?)", magic));
        }
        Status status = Status.of(in.readUnsignedByte());
        if (status != Status.OK) {
            throw new RemoteException(status, readMessage(in));
        }
    }

    public static void writeDownloadHeader(DataOutput out, DownloadHeader h) throws IOException {
        writeOk(out);
        out.writeLong(h.length());
        out.writeInt(h.crc32c());
        out.writeInt(h.residencyPermille());
    }

    public static DownloadHeader readDownloadHeader(DataInput in) throws IOException {
        readHeader(in);
        long length = in.readLong();
        if (length < 0) {
            throw new ProtocolException(Status.BAD_REQUEST, "negative length in response");
        }
        return new DownloadHeader(length, in.readInt(), in.readInt());
    }

    public static void writeTrailer(DataOutput out, Trailer t) throws IOException {
        out.writeByte(t.status().code());
        out.writeLong(t.serverNanos());
        out.writeInt(t.residencyPermille());
        if (t.status() != Status.OK) {
            writeMessage(out, t.message());
        }
    }

    public static Trailer readTrailer(DataInput in) throws IOException {
        Status status = Status.of(in.readUnsignedByte());
        long nanos = in.readLong();
        int residency = in.readInt();
        String message = status == Status.OK ? "" : readMessage(in);
        return new Trailer(status, nanos, residency, message);
    }

    public static void writeJson(DataOutput out, byte[] json) throws IOException {
        writeOk(out);
        out.writeInt(json.length);
        out.write(json);
    }

    public static byte[] readJson(DataInput in) throws IOException {
        readHeader(in);
        int len = in.readInt();
        if (len < 0 || len > Wire.MAX_JSON_BYTES) {
            throw new ProtocolException(Status.BAD_REQUEST, "JSON body of " + len + " bytes exceeds " + Wire.MAX_JSON_BYTES);
        }
        byte[] b = new byte[len];
        in.readFully(b);
        return b;
    }

    private static void writeMessage(DataOutput out, String message) throws IOException {
        byte[] b = (message == null ? "" : message).getBytes(StandardCharsets.UTF_8);
        int len = Math.min(b.length, Wire.MAX_MESSAGE_BYTES);
        out.writeShort(len);
        out.write(b, 0, len);
    }

    private static String readMessage(DataInput in) throws IOException {
        int len = in.readUnsignedShort();
        if (len > Wire.MAX_MESSAGE_BYTES) {
            throw new ProtocolException(Status.BAD_REQUEST, "message of " + len + " bytes exceeds " + Wire.MAX_MESSAGE_BYTES);
        }
        byte[] b = new byte[len];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
