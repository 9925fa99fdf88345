package io.xferbench.core.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/** {@code FileChannel.read(dst, position)} on N threads sharing one channel: pread64(2) per block, page cache. */
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
        try (FileChannel channel = FileChannel.open(spec.file(), StandardOpenOption.READ)) {
            return ParallelReads.run(spec, latencies, name(), new ParallelReads.ReaderFactory() {
                @Override
                public ParallelReads.BlockReader open() {
                    return (dst, offset) -> {
                        ParallelReads.readFully(channel, dst, offset);
                        return dst.flip();
                    };
                }

                @Override
                public ByteBuffer buffer(int blockSize) {
                    return ByteBuffer.allocateDirect(blockSize);
                }
            });
        }
    }
}
