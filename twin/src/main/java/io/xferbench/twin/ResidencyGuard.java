package io.xferbench.twin;

import io.xferbench.nativeio.PageCache;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Keeps the test file in the page cache before every measured send, so no buffered sender pays for the device: re-warms
 * it when anything was evicted, and remembers the lowest residency seen and how often it re-warmed, for the header.
 */
final class ResidencyGuard {
    private final Path file;
    private long minResidentPermille = 1000;
    private int rewarms;

    ResidencyGuard(Path file) {
        this.file = file;
    }

    void ensureResident() throws IOException {
        long permille = PageCache.residency(file).permille();
        minResidentPermille = Math.min(minResidentPermille, permille);
        if (permille < 1000) {
            rewarms++;
            PageCache.warm(file);
        }
    }

    long minResidentPermille() {
        return minResidentPermille;
    }

    int rewarms() {
        return rewarms;
    }
}
