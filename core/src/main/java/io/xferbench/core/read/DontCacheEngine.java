package io.xferbench.core.read;

import io.xferbench.nativeio.DontCacheProbe;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.Preadv2;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * preadv2(2) with RWF_DONTCACHE (Linux 6.14) on N threads, each with its own descriptor: sync-filechannel's buffered
 * reads, read-ahead and all, whose pages leave the page cache once read (pages already cached are read and left).
 * No fio twin: fio 3.33's {@code uncached} option sets 0x40, RWF_ATOMIC on this kernel; the C twin of the dontcache
 * download is this read's reference.
 */
public final class DontCacheEngine implements ReadEngine {
    @Override
    public String name() {
        return "dontcache";
    }

    @Override
    public String fioEngine() {
        return null;
    }

    @Override
    public boolean direct() {
        return false;
    }

    /** The probe's reason (kernel before 6.14, a file system without the flag, no shim), or null. */
    @Override
    public String unsupported(ReadSpec spec) {
        return dontCacheUnsupported(spec);
    }

    /** The probe's reason or null; uring-dontcache's too (OwnRingReads). */
    static String dontCacheUnsupported(ReadSpec spec) {
        String fds = Fds.unavailableReason();
        if (fds != null) {
            return fds;
        }
        try {
            return DontCacheProbe.unsupportedReason(spec.file());
        } catch (NativeException e) {
            return e.getMessage();
        }
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        return ParallelReads.run(spec, latencies, name(), new ParallelReads.ReaderFactory() {
            @Override
            public ParallelReads.BlockReader open() throws IOException {
                FileChannel channel = FileChannel.open(spec.file(), StandardOpenOption.READ);
                int fd = Fds.of(channel);
                return new ParallelReads.BlockReader() {
                    @Override
                    public ByteBuffer read(ByteBuffer dst, long offset) throws IOException {
                        long position = offset;
                        while (dst.hasRemaining()) {
                            if (Preadv2.read(fd, dst, position, Preadv2.RWF_DONTCACHE) == 0) {
                                throw new IOException("unexpected end of file at " + position + " in " + spec.file());
                            }
                            position = offset + dst.position();
                        }
                        return dst.flip();
                    }

                    @Override
                    public void close() throws IOException {
                        channel.close();
                    }
                };
            }

            @Override
            public ByteBuffer buffer(int blockSize) {
                return ByteBuffer.allocateDirect(blockSize);
            }
        });
    }
}
