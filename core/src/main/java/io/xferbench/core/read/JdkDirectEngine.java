package io.xferbench.core.read;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

/**
 * {@code FileChannel} opened with {@code ExtendedOpenOption.DIRECT} (open with O_DIRECT): pread64(2) per block
 * straight from the device into an aligned direct buffer, N threads.
 */
public final class JdkDirectEngine implements ReadEngine {
    @Override
    public String name() {
        return "odirect-jdk";
    }

    @Override
    public String fioEngine() {
        return "psync";
    }

    @Override
    public boolean direct() {
        return true;
    }

    @Override
    public String unsupported(ReadSpec spec) {
        try {
            int align = alignment(spec);
            return spec.blockSize() % align == 0 ? null
                    : "block size " + spec.blockSize() + " is not a multiple of the O_DIRECT alignment " + align;
        } catch (IOException e) {
            return "O_DIRECT block size unknown: " + e;
        }
    }

    private static int alignment(ReadSpec spec) throws IOException {
        FileStore store = Files.getFileStore(spec.file());
        return (int) Math.max(store.getBlockSize(), 512);
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        int align = alignment(spec);
        return ParallelReads.run(spec, latencies, name(), new ParallelReads.ReaderFactory() {
            @Override
            public ParallelReads.BlockReader open() throws IOException {
                // One O_DIRECT descriptor per thread, like fio's jobs.
                return ParallelReads.ChannelReader.open(spec.file(), StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
            }

            @Override
            public ByteBuffer buffer(int blockSize) {
                return ByteBuffer.allocateDirect(blockSize + align).alignedSlice(align);
            }
        });
    }
}
