package io.xferbench.disk.pollution;

import io.xferbench.core.read.BlockDigest;
import io.xferbench.core.read.ReadOutcome;
import io.xferbench.nativeio.BufferedFile;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A buffered sequential read that calls posix_fadvise(POSIX_FADV_DONTNEED) on each block once it has been consumed,
 * so the file passes through the page cache (read-ahead still works) without accumulating there.
 */
final class DontNeedBehindReader {
    private static final long LAG = 16L << 20;

    private DontNeedBehindReader() {
    }

    static ReadOutcome read(java.nio.file.Path file, long size, int blockSize) throws IOException {
        ByteBuffer block = ByteBuffer.allocateDirect(blockSize);
        BlockDigest digest = new BlockDigest();
        long ops = 0;
        long t0;
        try (BufferedFile f = BufferedFile.openRead(file)) {
            t0 = System.nanoTime();
            for (long at = 0; at < size; at += blockSize) {
                block.clear();
                while (block.hasRemaining()) {
                    if (f.pread(block, at + block.position()) <= 0) {
                        throw new IOException("unexpected end of file at " + (at + block.position()) + " in " + file);
                    }
                }
                block.flip();
                digest.add(at, block);
                // Behind the reader only: pages read-ahead fetched past `at` are still to be consumed. The range
                // reaches back LAG bytes because DONTNEED skips pages still in another CPU's LRU add batch.
                long from = Math.max(0, at - LAG);
                f.dontNeed(from, at + blockSize - from);
                ops++;
            }
        }
        return new ReadOutcome(ops, ops * blockSize, digest.sum(), System.nanoTime() - t0);
    }
}
