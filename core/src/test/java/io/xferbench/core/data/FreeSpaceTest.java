package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FreeSpaceTest {
    private static final Path DIR = Path.of("/nowhere");

    @Test
    void whatFitsToTheByteIsLetThroughAndOneByteMoreIsRefusedWithBothFigures() {
        FreeSpace space = new FreeSpace(dir -> 1000);
        assertThatCode(() -> space.require(DIR, "an upload", 1000, 0)).doesNotThrowAnyException();
        assertThatCode(() -> space.require(DIR, "a file", 900, 100)).doesNotThrowAnyException();
        assertThatThrownBy(() -> space.require(DIR, "an upload", 1001, 0)).isInstanceOf(NotEnoughSpaceException.class)
                .hasMessage("an upload does not fit: 1001 bytes, 1000 bytes usable in the data directory");
        assertThatThrownBy(() -> space.require(DIR, "a file", 900, 101)).isInstanceOf(NotEnoughSpaceException.class)
                .hasMessageContaining("900 bytes and 101 more").hasMessageContaining("1000 bytes usable");
    }

    @Test
    void anAbsurdSizeDoesNotOverflowIntoFitting() {
        FreeSpace space = new FreeSpace(dir -> Long.MAX_VALUE - 10);
        assertThatThrownBy(() -> space.require(DIR, "a file", Long.MAX_VALUE - 5, Long.MAX_VALUE)).isInstanceOf(NotEnoughSpaceException.class);
        assertThatThrownBy(() -> space.require(DIR, "a file", Long.MAX_VALUE - 20, 20)).isInstanceOf(NotEnoughSpaceException.class);
    }
}
