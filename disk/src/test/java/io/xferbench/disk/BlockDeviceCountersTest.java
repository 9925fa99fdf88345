package io.xferbench.disk;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The device columns come from differences of /sys/block/…/stat counters. */
class BlockDeviceCountersTest {
    @Test
    void latencyPerReadIsTheReadTimeOfTheWindowOverItsReads() {
        BlockDevice.Counters before = new BlockDevice.Counters(1_000, 8_000, 700);
        BlockDevice.Counters after = new BlockDevice.Counters(5_000, 40_000, 2_700);
        BlockDevice.Counters window = after.minus(before);
        assertEquals(new BlockDevice.Counters(4_000, 32_000, 2_000), window);
        assertEquals(500.0, window.microsPerRead(), 1e-9);
    }

    @Test
    void aWindowWithoutReadsHasNoLatency() {
        BlockDevice.Counters c = new BlockDevice.Counters(9, 72, 3);
        assertEquals(0.0, c.minus(c).microsPerRead());
    }

    /** Fields 1, 3 and 4 only grow; reading another field (field 9, in flight, goes down) could go negative. */
    @Test
    void countersOfARealDeviceOnlyGrow() throws Exception {
        BlockDevice device = BlockDevice.of(Path.of("target"));
        BlockDevice.Counters a = device.counters();
        BlockDevice.Counters b = device.counters();
        BlockDevice.Counters d = b.minus(a);
        assertTrue(d.reads() >= 0 && d.sectors() >= 0 && d.readMillis() >= 0, d.toString());
    }
}
