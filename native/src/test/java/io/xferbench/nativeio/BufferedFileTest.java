package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BufferedFileTest {
    @TempDir
    Path dir;

    @Test
    void preadReturnsTheBytesAtTheOffsetAndShortAtEnd() throws Exception {
        byte[] content = new byte[10_000];
        new Random(7).nextBytes(content);
        Path file = Files.write(dir.resolve("f"), content);
        try (BufferedFile f = BufferedFile.openRead(file)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(4096);
            assertThat(f.pread(buf, 1234)).isEqualTo(4096);
            byte[] got = new byte[4096];
            buf.flip().get(got);
            assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(content, 1234, 1234 + 4096));
            assertThat(f.pread(buf.clear(), 9000)).isEqualTo(1000);
            assertThat(f.pread(buf.clear(), 10_000)).isZero();
            assertThatThrownBy(() -> f.pread(ByteBuffer.allocate(10), 0)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> BufferedFile.openRead(dir.resolve("missing"))).hasMessageContaining("ENOENT");
    }
}
