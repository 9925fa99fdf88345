package io.xferbench.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seeded fuzzing of the request decoder: random bytes and mutations of valid frames must either decode
 * to a request that re-encodes to the same body, or be refused with a ProtocolException. Nothing else
 * (no IndexOutOfBounds, no OutOfMemory, no hang).
 */
class RequestDecoderFuzzTest {
    private static final int CASES = 200_000;

    @Test
    void randomAndMutatedFramesDecodeOrAreRefusedCleanly() throws Exception {
        SplittableRandom random = new SplittableRandom(0x5EED);
        byte[] valid = bytes(RequestCodec.encode(new Request(Op.DOWNLOAD, "transfer-to", "dir/file.dat", "token", 1 << 20, 7,
                Flags.VERIFY_CRC32C, 65536)));
        // A proxy's forwarded frame: version 2 with its hop count last.
        byte[] forwarded = bytes(RequestCodec.encode(new Request(Op.PROXY, "copy", "", "token", 0, 0, 0, 65536, 3)));
        int decoded = 0;
        int decodedWithHops = 0;
        int refused = 0;
        for (int i = 0; i < CASES; i++) {
            byte[] frame = switch (i % 3) {
                case 0 -> randomBytes(random, random.nextInt(0, 64));
                case 1 -> mutate(random, i % 2 == 0 ? valid : forwarded);
                default -> withRandomBody(random);
            };
            try {
                Request r = RequestCodec.read(Channels.newChannel(new ByteArrayInputStream(frame)));
                if (r != null) {
                    decoded++;
                    decodedWithHops += r.hops() > 0 ? 1 : 0;
                    ByteBuffer again = RequestCodec.encode(r);
                    assertThat(RequestCodec.read(Channels.newChannel(new ByteArrayInputStream(bytes(again))))).isEqualTo(r);
                }
            } catch (ProtocolException e) {
                refused++;
                assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                assertThat(e.getMessage()).isNotBlank();
            }
        }
        // Both outcomes must really occur, or the generator is not exercising the decoder.
        assertThat(decoded).isGreaterThan(1000);
        assertThat(decodedWithHops).as("version 2 frames decoded").isGreaterThan(100);
        assertThat(refused).isGreaterThan(CASES / 2);
    }

    private static byte[] mutate(SplittableRandom random, byte[] valid) {
        byte[] b = valid.clone();
        int flips = random.nextInt(1, 4);
        for (int f = 0; f < flips; f++) {
            int at = random.nextInt(4, b.length); // keep the magic most of the time
            b[at] = (byte) random.nextInt(256);
        }
        if (random.nextInt(4) == 0) {
            return java.util.Arrays.copyOf(b, random.nextInt(0, b.length + 8));
        }
        return b;
    }

    /** Correct magic and length prefix, random body: exercises the body decoder, not just the magic check. */
    private static byte[] withRandomBody(SplittableRandom random) {
        byte[] body = randomBytes(random, random.nextInt(0, 200));
        if (body.length > 0) {
            body[0] = (byte) random.nextInt(1, 3); // a version spoken, so decoding goes deeper
        }
        if (body.length > 1) {
            body[1] = (byte) random.nextInt(0, 8);
        }
        return bytes(ByteBuffer.allocate(6 + body.length).putInt(Wire.MAGIC).putShort((short) body.length).put(body).flip());
    }

    private static byte[] randomBytes(SplittableRandom random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
