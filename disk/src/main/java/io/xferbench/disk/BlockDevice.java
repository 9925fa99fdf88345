package io.xferbench.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The block device under a file's file system, found through the file's st_dev and /sys/dev/block/MAJ:MIN
 * (a partition has its own stat; its queue, hence the scheduler, is its parent disk's). Throws when there is
 * none (tmpfs, overlay on nothing, a container without /sys): device reads would otherwise silently be zero.
 */
public record BlockDevice(String name, String majorMinor, Path statFile, String scheduler) {

    public static BlockDevice of(Path file) throws IOException {
        long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
        long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
        String mm = major + ":" + minor;
        Path sys = Path.of("/sys/dev/block", mm);
        Path stat = sys.resolve("stat");
        if (!Files.isReadable(stat)) {
            throw new IOException("no block device for " + file + " (st_dev " + mm + ": " + stat
                    + " is missing; tmpfs or overlay without a device?) so device reads cannot be measured");
        }
        Path real = sys.toRealPath();
        Path queue = Files.isDirectory(real.resolve("queue")) ? real.resolve("queue") : real.getParent().resolve("queue");
        String scheduler = Files.isReadable(queue.resolve("scheduler"))
                ? Files.readString(queue.resolve("scheduler")).trim() : "unknown";
        return new BlockDevice(real.getFileName().toString(), mm, stat, scheduler);
    }

    /**
     * Reads completed, 512-byte sectors read and milliseconds spent reading so far (fields 1, 3 and 4 of the stat
     * file; the last is the sum over reads of the time from the block layer taking the request to its completion,
     * so it includes the I/O scheduler's queue, not the submitter's).
     */
    public Counters counters() throws IOException {
        String[] f = Files.readString(statFile).trim().split("\\s+");
        return new Counters(Long.parseLong(f[0]), Long.parseLong(f[2]), Long.parseLong(f[3]));
    }

    public record Counters(long reads, long sectors, long readMillis) {
        public Counters minus(Counters earlier) {
            return new Counters(reads - earlier.reads, sectors - earlier.sectors, readMillis - earlier.readMillis);
        }

        /** Mean time a read spent in the block layer and the device, in microseconds; 0 without reads. */
        public double microsPerRead() {
            return reads == 0 ? 0 : readMillis * 1000.0 / reads;
        }
    }
}
