package io.xferbench.disk.pollution;

import io.xferbench.core.data.ContentGenerator;
import io.xferbench.nativeio.MappedResidency;
import io.xferbench.nativeio.PageCache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's hot set: {@code count} files {@code hot-NNNN.dat} of {@code fileSize} bytes in the served directory,
 * and how much of it is in the page cache (mincore over every file, like vmtouch). The files stay mapped (untouched)
 * until {@link #close}, so a sample costs one mincore a file on the CPU the server shares with the sampler.
 */
final class HotSet implements AutoCloseable {
    private final List<Path> files;
    private final long fileSize;
    private final List<MappedResidency> watched;

    private HotSet(List<Path> files, long fileSize, List<MappedResidency> watched) {
        this.files = files;
        this.fileSize = fileSize;
        this.watched = watched;
    }

    /** Writes the files (distinct bytes each: generator offsets do not overlap) and flushes them to the device. */
    static HotSet create(Path dir, int count, long fileSize, long seed) throws IOException {
        ContentGenerator g = new ContentGenerator(seed);
        ByteBuffer buffer = ByteBuffer.allocateDirect((int) Math.min(fileSize, 1 << 20));
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path file = dir.resolve(String.format("hot-%04d.dat", i));
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                for (long at = 0; at < fileSize; ) {
                    buffer.clear().limit((int) Math.min(buffer.capacity(), fileSize - at));
                    g.fill(buffer, i * fileSize + at);
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        at += out.write(buffer, at);
                    }
                }
                out.force(false);
            }
            files.add(file);
        }
        List<MappedResidency> watched = new ArrayList<>();
        try {
            for (Path f : files) {
                watched.add(MappedResidency.map(f));
            }
        } catch (IOException | RuntimeException e) {
            watched.forEach(MappedResidency::close);
            throw e;
        }
        return new HotSet(List.copyOf(files), fileSize, List.copyOf(watched));
    }

    List<String> names() {
        return files.stream().map(f -> f.getFileName().toString()).toList();
    }

    List<Path> files() {
        return files;
    }

    long fileSize() {
        return fileSize;
    }

    /** Resident pages of the hot set as a percentage of its pages (mincore on each file). */
    double residencyPercent() throws IOException {
        return residency().fraction() * 100;
    }

    /** Resident and total pages over every hot file (mincore). */
    PageCache.Residency residency() throws IOException {
        long resident = 0;
        long total = 0;
        for (MappedResidency w : watched) {
            PageCache.Residency r = w.residency();
            resident += r.residentPages();
            total += r.totalPages();
        }
        return new PageCache.Residency(resident, total);
    }

    /** Names of the hot files with a page in the page cache, for an error message. */
    List<String> cachedFiles() throws IOException {
        List<String> cached = new ArrayList<>();
        for (MappedResidency w : watched) {
            if (w.residency().residentPages() > 0) {
                cached.add(w.path().getFileName().toString());
            }
        }
        return cached;
    }

    /** Drops the hot set from the page cache, so the server (inside the cgroup) reads and owns it afresh. */
    void evict() throws IOException {
        for (Path f : files) {
            PageCache.evict(f);
        }
    }

    /** Unmaps the files. */
    @Override
    public void close() {
        watched.forEach(MappedResidency::close);
    }
}
