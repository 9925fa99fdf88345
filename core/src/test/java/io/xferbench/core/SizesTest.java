package io.xferbench.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SizesTest {
    @Test
    void parsesBinaryUnitsAndSums() {
        assertThat(Sizes.parse("0")).isZero();
        assertThat(Sizes.parse("4095")).isEqualTo(4095);
        assertThat(Sizes.parse("64KiB")).isEqualTo(65536);
        assertThat(Sizes.parse("64k")).isEqualTo(65536);
        assertThat(Sizes.parse("1MiB+1")).isEqualTo(1048577);
        assertThat(Sizes.parse("4GiB")).isEqualTo(4L << 30);
        assertThat(Sizes.parse("4G+1")).isEqualTo((4L << 30) + 1);
    }

    @Test
    void formatRoundTrips() {
        for (long v : new long[] {0, 1, 4095, 4096, 65536, 1048577, 4L << 30, (4L << 30) + 1}) {
            assertThat(Sizes.parse(Sizes.format(v))).isEqualTo(v);
        }
        assertThat(Sizes.format(1048577)).isEqualTo("1MiB+1");
    }

    @Test
    void rejectsGarbage() {
        assertThatThrownBy(() -> Sizes.parse("lots")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a size");
        assertThatThrownBy(() -> Sizes.parse("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Sizes.parse("99999999999T")).isInstanceOf(ArithmeticException.class);
    }
}
