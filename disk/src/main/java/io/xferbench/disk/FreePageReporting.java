package io.xferbench.disk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Whether this guest reports free memory to its host (virtio-balloon's free page reporting, feature bit 5): the
 * kernel hands free 2 MiB blocks back to the host about 2 s after they are freed, and the host must fault them in
 * again when the guest reuses them. A file evicted for a cold row frees exactly such blocks, so a read that starts
 * within the reporting delay fills the page cache with memory the host still holds, and one that starts later with
 * memory it has taken back: 40 % slower here. Which side of the delay a tool's start falls on was chance, so cold
 * rows wait it out ({@link #SETTLE}) and every tool reads into the same kind of memory.
 */
final class FreePageReporting {
    static final Path VIRTIO_BALLOON = Path.of("/sys/bus/virtio/drivers/virtio_balloon");
    /** VIRTIO_BALLOON_F_REPORTING. */
    private static final int FEATURE_BIT = 5;
    /** The kernel's PAGE_REPORTING_DELAY is 2 s; one more so the report has gone through. */
    static final Duration SETTLE = Duration.ofSeconds(3);

    private FreePageReporting() {
    }

    static boolean active() {
        return active(VIRTIO_BALLOON);
    }

    /** True when a device bound to the virtio-balloon driver in {@code driver} offers free page reporting. */
    static boolean active(Path driver) {
        if (!Files.isDirectory(driver)) {
            return false;
        }
        try (DirectoryStream<Path> devices = Files.newDirectoryStream(driver, "virtio*")) {
            for (Path device : devices) {
                Path features = device.resolve("features");
                if (Files.isReadable(features)) {
                    String bits = Files.readString(features, StandardCharsets.US_ASCII).trim();
                    if (bits.length() > FEATURE_BIT && bits.charAt(FEATURE_BIT) == '1') {
                        return true;
                    }
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /** How long cold rows wait after the eviction when the user does not say: the delay where reporting is on. */
    static Duration defaultSettle() {
        return active() ? SETTLE : Duration.ZERO;
    }
}
