package io.xferbench.core.read;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DirectIoFile;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.NativeSupport;

import java.io.IOException;
import java.nio.ByteBuffer;

/** O_DIRECT through the JNA shim ({@link DirectIoFile}): pread64(2) per block into an aligned buffer, N threads. */
public final class JnaDirectEngine implements ReadEngine {
    @Override
    public String name() {
        return "odirect-jna";
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
        return directUnsupported(spec);
    }

    /** Why O_DIRECT through the shim cannot read {@code spec} here (no shim, or a block size off the alignment), or null. */
    static String directUnsupported(ReadSpec spec) {
        String missing = NativeSupport.unavailableReason();
        if (missing != null) {
            return missing;
        }
        try (DirectIoFile file = DirectIoFile.openRead(spec.file())) {
            return spec.blockSize() % file.alignment() == 0 ? null
                    : "block size " + spec.blockSize() + " is not a multiple of the O_DIRECT alignment " + file.alignment();
        } catch (NativeException e) {
            return e.getMessage();
        }
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        try (DirectIoFile file = DirectIoFile.openRead(spec.file())) {
            return ParallelReads.run(spec, latencies, name(), new ParallelReads.ReaderFactory() {
                @Override
                public ParallelReads.BlockReader open() throws IOException {
                    DirectIoFile own = DirectIoFile.openRead(spec.file()); // one descriptor per thread, like fio's jobs
                    return new ParallelReads.BlockReader() {
                        @Override
                        public ByteBuffer read(ByteBuffer dst, long offset) throws IOException {
                            preadFully(own, dst, offset);
                            return dst.flip();
                        }

                        @Override
                        public void close() throws IOException {
                            own.close();
                        }
                    };
                }

                @Override
                public ByteBuffer buffer(int blockSize) {
                    return AlignedBuffers.allocate(blockSize, bufferAlignment(file));
                }
            });
        }
    }

    /**
     * Page-aligned at least, as fio aligns its O_DIRECT buffers and the JDK engine's are (file system block): the
     * DIO alignment here is 512, and a 4 KiB buffer on a 512 boundary spans two pages, two segments per request.
     */
    static int bufferAlignment(DirectIoFile file) {
        return Math.max(file.alignment(), AlignedBuffers.pageSize());
    }

    static void preadFully(DirectIoFile file, ByteBuffer dst, long offset) throws IOException {
        long position = offset;
        while (dst.hasRemaining()) {
            int n = file.pread(dst, position);
            if (n <= 0) {
                throw new IOException("unexpected end of file at " + position + " in " + file.path());
            }
            position += n;
        }
    }
}
