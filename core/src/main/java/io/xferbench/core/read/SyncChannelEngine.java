package io.xferbench.core.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.StandardOpenOption;

/**
 * {@code FileChannel.read(dst, position)} on N threads, each with its own channel (descriptor, so its own read-ahead
 * state, like fio's jobs): pread64(2) per block, page cache.
 */
public final class SyncChannelEngine implements ReadEngine {
    @Override
    public String name() {
        return "sync-filechannel";
    }

    @Override
    public String fioEngine() {
        return "psync";
    }

    @Override
    public boolean direct() {
        return false;
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        return ParallelReads.run(spec, latencies, name(), new ParallelReads.ReaderFactory() {
            @Override
            public ParallelReads.BlockReader open() throws IOException {
                return ParallelReads.ChannelReader.open(spec.file(), StandardOpenOption.READ);
            }

            @Override
            public ByteBuffer buffer(int blockSize) {
                return ByteBuffer.allocateDirect(blockSize);
            }
        });
    }
}
