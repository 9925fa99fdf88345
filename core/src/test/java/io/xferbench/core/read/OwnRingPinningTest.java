package io.xferbench.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.uring.PinnedMemory;
import io.xferbench.nativeio.uring.UringProbe;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The own-ring engines skip, with the limit named, a shape whose registered buffers exceed what the process may pin
 * (the probe's 64 KiB said nothing about concurrency × block), decided on injected limits.
 */
class OwnRingPinningTest {
    private static final UringProbe EVERYTHING_WORKS = new UringProbe(null, null, null, null, null, null, null);
    private static final PinnedMemory EIGHT_MIB = new PinnedMemory(false, 8L << 20);
    private static final ReadSpec DEEP = new ReadSpec(Path.of("/nonexistent"), 64L << 20, ReadPattern.SEQUENTIAL,
            128 * 1024, 256, 512, 42);

    @Test
    void fixedBuffersPastTheMemlockLimitAreSkippedWithWhy() {
        String reason = OwnRingReads.unsupported(DEEP, false, new OwnRingReads.Shape(false, true, true),
                EVERYTHING_WORKS, EIGHT_MIB);
        assertThat(reason).contains("RLIMIT_MEMLOCK", "CAP_IPC_LOCK");
    }

    @Test
    void ringsWithoutRegisteredBuffersOrWithCapIpcLockRun() {
        assertThat(OwnRingReads.unsupported(DEEP, false, new OwnRingReads.Shape(false, false, false),
                EVERYTHING_WORKS, EIGHT_MIB)).isNull();
        assertThat(OwnRingReads.unsupported(DEEP, false, new OwnRingReads.Shape(false, true, true),
                EVERYTHING_WORKS, new PinnedMemory(true, 8L << 20))).isNull();
    }
}
