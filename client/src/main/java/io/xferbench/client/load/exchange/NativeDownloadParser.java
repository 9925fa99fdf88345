package io.xferbench.client.load.exchange;

import io.xferbench.core.net.Crc32cCheck;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Wire;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The native protocol's download response, read incrementally: a header frame (length, CRC32C, residency),
 * exactly {@code length} body bytes, a trailer frame. Verified when the length is the file's and the body's CRC32C
 * is both the one the run expects for the file and the header's ({@link Crc32cCheck}, as in a timed download).
 */
final class NativeDownloadParser implements ResponseParser {
    private enum State { HEADER, BODY, TRAILER, DONE }

    private static final int HEADER_PAYLOAD = 16;
    private static final int TRAILER_PAYLOAD = 12;

    private final long expectedLength;
    private final int expectedCrc;
    private final String methodRun;
    private final FrameReader frame = new FrameReader();
    private final BodyChecksum crc = new BodyChecksum();
    private State state = State.HEADER;
    private long bodyLength;
    private int announcedCrc;
    private long bodyRead;
    private ExchangeOutcome outcome;

    /** @param methodRun what sends the body when the server answers OK (its header names no method) */
    NativeDownloadParser(long expectedLength, int expectedCrc, String methodRun) {
        this.expectedLength = expectedLength;
        this.expectedCrc = expectedCrc;
        this.methodRun = methodRun;
    }

    @Override
    public boolean feed(ByteBuffer in) throws LoadProtocolException {
        while (in.hasRemaining() && state != State.DONE) {
            switch (state) {
                case HEADER -> {
                    if (!frame.feed(in)) {
                        return false;
                    }
                    if (frame.status() != Status.OK) {
                        return finish(ExchangeOutcome.failed(frame.status().name(), 0));
                    }
                    ByteBuffer p = frame.payload(HEADER_PAYLOAD, "download header");
                    bodyLength = p.getLong();
                    announcedCrc = p.getInt();
                    if (bodyLength < 0) {
                        throw new LoadProtocolException("negative body length " + bodyLength);
                    }
                    frame.reset();
                    state = bodyLength == 0 ? State.TRAILER : State.BODY;
                }
                case BODY -> {
                    int n = crc.update(in, bodyLength - bodyRead);
                    bodyRead += n;
                    if (bodyRead == bodyLength) {
                        state = State.TRAILER;
                    }
                }
                case TRAILER -> {
                    if (!frame.feed(in)) {
                        return false;
                    }
                    if (frame.status() != Status.OK) {
                        return finish(ExchangeOutcome.failed("trailer " + frame.status().name(), bodyRead).withMethodRun(methodRun));
                    }
                    frame.payload(TRAILER_PAYLOAD, "trailer");
                    return finish(verdict().withMethodRun(methodRun));
                }
                default -> throw new IllegalStateException(state.name());
            }
        }
        return state == State.DONE;
    }

    private ExchangeOutcome verdict() {
        int got = crc.value();
        if (bodyLength != expectedLength) {
            return ExchangeOutcome.failed("length mismatch", bodyRead);
        }
        if (!new Crc32cCheck(expectedCrc, announcedCrc, got).ok()) {
            return ExchangeOutcome.failed("crc mismatch", bodyRead);
        }
        return ExchangeOutcome.verified(bodyRead);
    }

    private boolean finish(ExchangeOutcome o) {
        outcome = o;
        state = State.DONE;
        return true;
    }

    @Override
    public ExchangeOutcome outcome() {
        return outcome;
    }

    /** After an error frame the server may end the connection; a fresh one is simpler than guessing. */
    @Override
    public boolean closesConnection() {
        return outcome != null && !outcome.ok();
    }

    /** One response frame: {@code u32 magic | u8 status | u32 length | payload}, bounded before it is buffered. */
    static final class FrameReader {
        private final ByteBuffer prefix = ByteBuffer.allocate(Wire.RESPONSE_PREFIX_BYTES);
        private ByteBuffer payload;
        private Status status;

        boolean feed(ByteBuffer in) throws LoadProtocolException {
            if (payload == null) {
                transfer(in, prefix);
                if (prefix.hasRemaining()) {
                    return false;
                }
                prefix.flip();
                int magic = prefix.getInt();
                if (magic != Wire.MAGIC) {
                    throw new LoadProtocolException(String.format("bad response magic 0x%08x", magic));
                }
                status = Status.of(Byte.toUnsignedInt(prefix.get()));
                int length = prefix.getInt();
                if (length < 0 || length > Wire.MAX_RESPONSE_PAYLOAD_BYTES) {
                    throw new LoadProtocolException("response payload of " + length + " bytes is out of bounds");
                }
                payload = ByteBuffer.allocate(length);
            }
            transfer(in, payload);
            return !payload.hasRemaining();
        }

        Status status() {
            return status;
        }

        ByteBuffer payload(int expected, String what) throws LoadProtocolException {
            if (payload.capacity() != expected) {
                throw new LoadProtocolException(what + " of " + payload.capacity() + " bytes, expected " + expected);
            }
            return payload.flip();
        }

        String message() {
            return StandardCharsets.UTF_8.decode(payload.duplicate().flip()).toString();
        }

        void reset() {
            prefix.clear();
            payload = null;
            status = null;
        }

        private static void transfer(ByteBuffer from, ByteBuffer to) {
            int n = Math.min(from.remaining(), to.remaining());
            to.put(to.position(), from, from.position(), n);
            to.position(to.position() + n);
            from.position(from.position() + n);
        }
    }
}
