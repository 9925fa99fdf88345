package io.xferbench.core.protocol;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * Response frames: {@code u32 magic | u8 status | u32 payload length | payload}. A status other than OK
 * carries a UTF-8 message as payload. OK payloads by kind:
 * <pre>
 * download header: i64 length | u32 crc32c | i32 residency-before (per mille, -1 unknown)   then the body
 * trailer:         i64 server nanos | i32 residency-after       (after a body; status says how it ended)
 * json:            UTF-8 JSON
 * upload ready:    i64 length                                   (the server will read exactly this many body bytes)
 * upload result:   i64 bytes | u32 crc32c | u8 checksum-source (0 inline, 1 re-read from the file)
 *                  | i64 server nanos | i64 verify nanos | i64 fsync nanos (-1: not synced)
 * proxy ready:     UTF-8 id of the relay method now in effect (at most 64 bytes); the connection is relayed from here
 * prepared:        i32 residency found (per mille, -1 unknown) | i32 residency left | i64 server nanos preparing
 * stat:            u8 exists (0/1) | i64 size | i64 mtime nanos           (size and mtime 0 when absent)
 * deleted:         empty                                         (a missing file is NOT_FOUND instead)
 * </pre>
 * An upload is: request → ready (or an error, and no body is sent) → body → result (or an error: NO_SPACE,
 * VERIFY_FAILED, ...). A failure in the middle of the body is answered once the rest of the body has been drained,
 * then the server closes the connection.
 */
public final class ResponseCodec {
    private ResponseCodec() {
    }

    public static ByteBuffer error(Status status, String message) {
        byte[] b = (message == null ? "" : message).getBytes(StandardCharsets.UTF_8);
        int len = Math.min(b.length, Wire.MAX_MESSAGE_BYTES);
        return frame(status, len).put(b, 0, len).flip();
    }

    public static ByteBuffer downloadHeader(DownloadHeader h) {
        return frame(Status.OK, 16).putLong(h.length()).putInt(h.crc32c()).putInt(h.residencyPermille()).flip();
    }

    public static ByteBuffer trailer(Trailer t) {
        if (t.status() != Status.OK) {
            return error(t.status(), t.message());
        }
        return frame(Status.OK, 12).putLong(t.serverNanos()).putInt(t.residencyPermille()).flip();
    }

    public static ByteBuffer json(byte[] json) {
        if (json.length > Wire.MAX_RESPONSE_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("JSON response of " + json.length + " bytes exceeds " + Wire.MAX_RESPONSE_PAYLOAD_BYTES);
        }
        return frame(Status.OK, json.length).put(json).flip();
    }

    public static ByteBuffer uploadReady(long length) {
        return frame(Status.OK, 8).putLong(length).flip();
    }

    public static ByteBuffer uploadResult(UploadReport r) {
        return frame(Status.OK, 8 + 4 + 1 + 8 + 8 + 8).putLong(r.bytes()).putInt(r.crc32c()).put((byte) (r.checksumReread() ? 1 : 0))
                .putLong(r.serverNanos()).putLong(r.verifyNanos()).putLong(r.fsyncNanos()).flip();
    }

    public static ByteBuffer prepared(Prepared p) {
        return frame(Status.OK, 16).putInt(p.residencyFoundPermille()).putInt(p.residencyPermille()).putLong(p.nanos()).flip();
    }

    public static ByteBuffer stat(FileStat s) {
        return frame(Status.OK, 17).put((byte) (s.exists() ? 1 : 0)).putLong(s.size()).putLong(s.mtimeNanos()).flip();
    }

    public static ByteBuffer deleted() {
        return frame(Status.OK, 0).flip();
    }

    public static ByteBuffer proxyReady(String relayId) {
        byte[] id = RequestCodec.Text.bytes(relayId, Wire.MAX_METHOD_BYTES, "relay id");
        return frame(Status.OK, id.length).put(id).flip();
    }

    private static ByteBuffer frame(Status status, int payload) {
        return ByteBuffer.allocate(Wire.RESPONSE_PREFIX_BYTES + payload).putInt(Wire.MAGIC).put((byte) status.code()).putInt(payload);
    }

    /** Reads a frame; a status other than OK becomes a {@link RemoteException} with the server's message. */
    public static ByteBuffer readOk(ReadableByteChannel in) throws IOException {
        ByteBuffer prefix = ByteBuffer.allocate(Wire.RESPONSE_PREFIX_BYTES);
        Frames.readFully(in, prefix);
        prefix.flip();
        int magic = prefix.getInt();
        if (magic != Wire.MAGIC) {
            throw new ProtocolException(Status.BAD_REQUEST, String.format("bad response magic 0x%08x (not an xferbench server?)", magic));
        }
        Status status = Status.of(Byte.toUnsignedInt(prefix.get()));
        int length = prefix.getInt();
        if (length < 0 || length > Wire.MAX_RESPONSE_PAYLOAD_BYTES) {
            throw new ProtocolException(Status.BAD_REQUEST, "response payload of " + length + " bytes is out of bounds");
        }
        ByteBuffer payload = ByteBuffer.allocate(length);
        Frames.readFully(in, payload);
        payload.flip();
        if (status != Status.OK) {
            throw new RemoteException(status, StandardCharsets.UTF_8.decode(payload).toString());
        }
        return payload;
    }

    public static DownloadHeader readDownloadHeader(ReadableByteChannel in) throws IOException {
        ByteBuffer p = readOk(in);
        try {
            DownloadHeader h = new DownloadHeader(p.getLong(), p.getInt(), p.getInt());
            if (h.length() < 0) {
                throw new ProtocolException(Status.BAD_REQUEST, "negative length in download header");
            }
            return h;
        } catch (BufferUnderflowException e) {
            throw new ProtocolException(Status.BAD_REQUEST, "short download header");
        }
    }

    /** Reads a trailer; a failed one throws {@link RemoteException} with the server's reason. */
    public static Trailer readTrailer(ReadableByteChannel in) throws IOException {
        ByteBuffer p = readOk(in);
        try {
            return Trailer.ok(p.getLong(), p.getInt());
        } catch (BufferUnderflowException e) {
            throw new ProtocolException(Status.BAD_REQUEST, "short trailer");
        }
    }

    /** Reads the upload ready frame; a refusal throws {@link RemoteException} and no body may follow. */
    public static long readUploadReady(ReadableByteChannel in) throws IOException {
        ByteBuffer p = readOk(in);
        try {
            long length = p.getLong();
            if (length < 0 || p.hasRemaining()) {
                throw new ProtocolException(Status.BAD_REQUEST, "malformed upload ready frame");
            }
            return length;
        } catch (BufferUnderflowException e) {
            throw new ProtocolException(Status.BAD_REQUEST, "short upload ready frame");
        }
    }

    /** Reads the upload result; a failed upload throws {@link RemoteException} with the server's reason. */
    public static UploadReport readUploadResult(ReadableByteChannel in) throws IOException {
        ByteBuffer p = readOk(in);
        try {
            long bytes = p.getLong();
            int crc = p.getInt();
            int source = Byte.toUnsignedInt(p.get());
            UploadReport r = new UploadReport(bytes, crc, source == 1, p.getLong(), p.getLong(), p.getLong());
            if (bytes < 0 || source > 1 || p.hasRemaining()) {
                throw new ProtocolException(Status.BAD_REQUEST, "malformed upload result frame");
            }
            return r;
        } catch (BufferUnderflowException e) {
            throw new ProtocolException(Status.BAD_REQUEST, "short upload result frame");
        }
    }

    /** Reads the answer to PREPARE; a refusal (unknown file, say) throws {@link RemoteException}. */
    public static Prepared readPrepared(ReadableByteChannel in) throws IOException {
        ByteBuffer p = readOk(in);
        try {
            Prepared r = new Prepared(p.getInt(), p.getInt(), p.getLong());
            if (p.hasRemaining()) {
                throw new ProtocolException(Status.BAD_REQUEST, "malformed prepared frame");
            }
            return r;
        } catch (BufferUnderflowException e) {
            throw new ProtocolException(Status.BAD_REQUEST, "short prepared frame");
        }
    }

    /** Reads the answer to STAT. */
    public static FileStat readStat(ReadableByteChannel in) throws IOException {
        ByteBuffer p = readOk(in);
        try {
            int exists = Byte.toUnsignedInt(p.get());
            FileStat s = new FileStat(exists == 1, p.getLong(), p.getLong());
            if (exists > 1 || p.hasRemaining() || s.size() < 0) {
                throw new ProtocolException(Status.BAD_REQUEST, "malformed stat frame");
            }
            return s;
        } catch (BufferUnderflowException e) {
            throw new ProtocolException(Status.BAD_REQUEST, "short stat frame");
        }
    }

    /** Reads the answer to DELETE; a missing file throws {@link RemoteException} (NOT_FOUND). */
    public static void readDeleted(ReadableByteChannel in) throws IOException {
        if (readOk(in).hasRemaining()) {
            throw new ProtocolException(Status.BAD_REQUEST, "malformed deleted frame");
        }
    }

    /** Reads the proxy ready frame and returns the relay id in effect. */
    public static String readProxyReady(ReadableByteChannel in) throws IOException {
        ByteBuffer p = readOk(in);
        if (p.remaining() > Wire.MAX_METHOD_BYTES) {
            throw new ProtocolException(Status.BAD_REQUEST, "relay id of " + p.remaining() + " bytes exceeds " + Wire.MAX_METHOD_BYTES);
        }
        return StandardCharsets.UTF_8.decode(p).toString();
    }

    public static byte[] readJson(ReadableByteChannel in) throws IOException {
        ByteBuffer p = readOk(in);
        byte[] b = new byte[p.remaining()];
        p.get(b);
        return b;
    }
}
