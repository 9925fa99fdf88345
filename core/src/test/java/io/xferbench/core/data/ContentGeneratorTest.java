package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

class ContentGeneratorTest {
    private final ContentGenerator gen = new ContentGenerator(42);

    @Test
    void anyRangeEqualsTheSameRangeOfAWholeFill() {
        ByteBuffer whole = ByteBuffer.allocate(4096);
        gen.fill(whole, 0);
        for (int start : new int[] {0, 1, 3, 7, 8, 9, 100, 4095}) {
            for (int len : new int[] {0, 1, 5, 8, 13, 4096 - start}) {
                if (start + len > 4096) {
                    continue;
                }
                ByteBuffer part = ByteBuffer.allocateDirect(len);
                gen.fill(part, start);
                assertThat(part.flip()).as("start %d len %d", start, len).isEqualTo(whole.slice(start, len));
            }
        }
    }

    @Test
    void contentDoesNotCompressAndDependsOnTheSeed() {
        byte[] data = new byte[1 << 16];
        gen.fill(ByteBuffer.wrap(data), 0);
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
        d.setInput(data);
        d.finish();
        byte[] out = new byte[data.length * 2];
        int compressed = d.deflate(out);
        assertThat(compressed).isGreaterThan(data.length * 99 / 100);

        byte[] other = new byte[data.length];
        new ContentGenerator(43).fill(ByteBuffer.wrap(other), 0);
        assertThat(other).isNotEqualTo(data);
    }
}
