package io.xferbench.core.read;

import io.xferbench.core.mmap.Unmapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * One {@code MappedByteBuffer} per 1 GiB window (mmap(2), no read syscalls): N threads copy blocks out of the
 * mapping (memcpy), so page faults do the I/O.
 */
public final class MmapEngine implements ReadEngine {
    private static final long WINDOW = 1L << 30;

    @Override
    public String name() {
        return "mmap";
    }

    @Override
    public String fioEngine() {
        return "mmap";
    }

    @Override
    public boolean direct() {
        return false;
    }

    @Override
    public String unsupported(ReadSpec spec) {
        return WINDOW % spec.blockSize() == 0 ? null : "block size must divide 1 GiB for the mapping windows";
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        try (FileChannel channel = FileChannel.open(spec.file(), StandardOpenOption.READ)) {
            int windows = (int) ((spec.span() + WINDOW - 1) / WINDOW);
            MappedByteBuffer[] maps = new MappedByteBuffer[windows];
            for (int w = 0; w < windows; w++) {
                long start = w * WINDOW;
                maps[w] = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(WINDOW, spec.span() - start));
            }
            try {
                return ParallelReads.run(spec, latencies, name(), new ParallelReads.ReaderFactory() {
                @Override
                public ParallelReads.BlockReader open() {
                    return (dst, offset) -> {
                        int at = (int) (offset % WINDOW);
                        // The copy out of the mapping is the read: it takes the page faults inside the timed op.
                        dst.put(maps[(int) (offset / WINDOW)].slice(at, spec.blockSize()));
                        return dst.flip();
                    };
                }

                @Override
                public ByteBuffer buffer(int blockSize) {
                    return ByteBuffer.allocateDirect(blockSize);
                }
                });
            } finally {
                // Unmap now, not at some GC: a live mapping pins its pages, so fadvise(DONTNEED) could not
                // make the next row cold. The reader threads have ended, so nothing touches the mapping.
                for (MappedByteBuffer map : maps) {
                    if (map != null) {
                        Unmapper.unmap(map);
                    }
                }
            }
        }
    }
}
