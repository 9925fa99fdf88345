package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlignedBuffersTest {

    @ParameterizedTest(name = "{0} bytes aligned to {1}")
    @CsvSource({"0, 512", "1, 512", "4095, 4096", "4097, 4096", "8192, 4096", "1048577, 2097152"})
    void allocateGivesExactCapacityAtAnAlignedAddress(int capacity, int alignment) {
        ByteBuffer buffer = AlignedBuffers.allocate(capacity, alignment);
        assertThat(buffer.isDirect()).isTrue();
        assertThat(buffer.capacity()).isEqualTo(capacity);
        assertThat(buffer.position()).isZero();
        assertThat(buffer.limit()).isEqualTo(capacity);
        assertThat(AlignedBuffers.address(buffer) % alignment).isZero();
    }

    @ParameterizedTest(name = "{0} bytes, {2} past a {1} boundary")
    @CsvSource({"4096, 4096, 16", "8192, 4096, 4095", "100, 512, 1", "100, 512, 0"})
    void misalignedIsSkewedByExactlyTheSkew(int capacity, int alignment, int skew) {
        ByteBuffer buffer = AlignedBuffers.misaligned(capacity, alignment, skew);
        assertThat(buffer.capacity()).isEqualTo(capacity);
        assertThat(AlignedBuffers.address(buffer) % alignment).isEqualTo(skew);
    }

    @Test
    void addressIsOfIndexZeroNotThePosition() {
        ByteBuffer buffer = AlignedBuffers.allocate(8192, 4096);
        long address = AlignedBuffers.address(buffer);
        assertThat(AlignedBuffers.address(buffer.position(100))).isEqualTo(address);
        assertThat(AlignedBuffers.address(buffer.slice())).isEqualTo(address + 100);
    }

    @Test
    void pageSizeIsAPowerOfTwo() {
        assertThat(AlignedBuffers.pageSize()).isGreaterThanOrEqualTo(4096);
        assertThat(Integer.bitCount(AlignedBuffers.pageSize())).isOne();
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> AlignedBuffers.allocate(10, 3)).hasMessageContaining("alignment 3 is not a positive power of two");
        assertThatThrownBy(() -> AlignedBuffers.misaligned(10, 512, 512)).hasMessageContaining("skew 512 is not in [0, 512)");
        assertThatThrownBy(() -> AlignedBuffers.address(ByteBuffer.allocate(1))).hasMessageContaining("heap ByteBuffer");
    }
}
