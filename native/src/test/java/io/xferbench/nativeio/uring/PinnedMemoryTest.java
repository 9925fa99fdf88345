package io.xferbench.nativeio.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.AlignedBuffers;
import org.junit.jupiter.api.Test;

/** The decision whether registered buffers fit the memlock limit, on injected limits. */
class PinnedMemoryTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void buffersPastTheLimitWithoutIpcLockAreRefusedWithTheLimitNamed() {
        String reason = new PinnedMemory(false, 8 * MIB).refusal(256, 128 * 1024);
        assertThat(reason).contains("RLIMIT_MEMLOCK 8388608 bytes", "ulimit -l 8192", "CAP_IPC_LOCK",
                "pins " + 32 * MIB + " bytes");
    }

    @Test
    void capIpcLockOrNoLimitOrEnoughLimitAllowsThem() {
        assertThat(new PinnedMemory(true, 8 * MIB).refusal(256, 128 * 1024)).isNull();
        assertThat(new PinnedMemory(false, PinnedMemory.UNLIMITED).refusal(256, 128 * 1024)).isNull();
        assertThat(new PinnedMemory(false, 32 * MIB).refusal(256, 128 * 1024)).isNull();
    }

    @Test
    void eachBufferPinsWholePages() {
        long page = AlignedBuffers.pageSize();
        assertThat(PinnedMemory.pinnedBytes(32, 1)).isEqualTo(32 * page);
        assertThat(new PinnedMemory(false, 31 * page).refusal(32, 1)).isNotNull();
        assertThat(new PinnedMemory(false, 32 * page).refusal(32, page)).isNull();
    }
}
