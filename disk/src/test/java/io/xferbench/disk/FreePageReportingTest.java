package io.xferbench.disk;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The feature bit read from a fake sysfs driver directory: bit 5 of the first balloon device that has it. */
class FreePageReportingTest {
    @TempDir
    Path driver;

    @Test
    void bitFiveOnMeansReporting() throws Exception {
        device("virtio0", "0110010100000000000000000000000010000000");
        assertTrue(FreePageReporting.active(driver));
    }

    @Test
    void bitFiveOffOrNoDeviceOrNoDriverMeansNone() throws Exception {
        assertFalse(FreePageReporting.active(driver), "no device bound");
        assertFalse(FreePageReporting.active(driver.resolve("missing")), "no driver");
        device("virtio3", "1111101111111111");
        assertFalse(FreePageReporting.active(driver), "bit 5 clear, every other bit set");
        device("virtio4", "0000");
        assertFalse(FreePageReporting.active(driver), "a features string too short to hold bit 5");
        device("virtio5", "0000010");
        assertTrue(FreePageReporting.active(driver), "a second device with the bit");
    }

    private void device(String name, String features) throws Exception {
        Path dir = Files.createDirectories(driver.resolve(name));
        Files.writeString(dir.resolve("features"), features + "\n");
    }
}
