package io.xferbench.core.method.receive;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedReceiverMethod;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.mmap.Unmapper;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * {@code SocketChannel.read} straight into {@code MappedByteBuffer} windows of the file: the file is first
 * extended to its final length (a sparse 1-byte pwrite64(2) at length - 1), then per window mmap(2) + read(2)
 * into the mapping (the kernel copies socket data into the page-cache pages; page faults allocate them) +
 * munmap(2). Windows are at most 1 GiB (a MappedByteBuffer is int-indexed) and are unmapped as soon as they are
 * full. The CRC32C is computed over each filled window, that is over the file's own pages.
 *
 * <p>A page that cannot be allocated (full file system) fails the fault: inside read(2) the kernel answers
 * EFAULT ("Bad address"), reported here as "No space left on device" when the file store is indeed full; a fault
 * in our own access to the mapping would be SIGBUS, which the JDK turns into an {@link InternalError}, also
 * reported as an {@link IOException}. (Not exercised by the tests: they cannot fill a file system.)
 */
public final class MmapReceiver implements FileReceiver {
    static final long DEFAULT_WINDOW = 1L << 30;

    public static final ReceiverMethod METHOD = DefinedReceiverMethod.alwaysAvailable("mmap",
            "extend to length (1-byte pwrite64(2)), MappedByteBuffer windows (<= 1 GiB) filled by SocketChannel.read: mmap(2), read(2) into the mapping, munmap(2)",
            MethodTraits.noTwin(MethodTraits.NO_UPLOAD_TWIN_YET).definedBy("mmap", "read"),
            options -> new MmapReceiver(DEFAULT_WINDOW));

    private final long window;
    private final CRC32C crc = new CRC32C();

    MmapReceiver(long window) {
        this.window = window;
    }

    @Override
    public long receive(SocketChannel socket, ByteBuffer ahead, FileChannel file, Path path, long length) throws IOException {
        crc.reset();
        ReadableByteChannel in = PrefixedChannel.of(ahead, socket);
        if (length == 0) {
            return crc.getValue();
        }
        setLength(file, length);
        long pos = 0;
        while (pos < length) {
            long n = Math.min(window, length - pos);
            MappedByteBuffer map = file.map(FileChannel.MapMode.READ_WRITE, pos, n);
            try {
                while (map.hasRemaining()) {
                    if (in.read(map) < 0) {
                        throw new EOFException("connection closed after " + (pos + map.position()) + " of " + length + " body bytes");
                    }
                }
                crc.update(map.flip());
            } catch (InternalError e) {
                throw new IOException("page fault in the mapping of " + path + " at offset " + pos
                        + " (SIGBUS: file system full?): " + e.getMessage(), e);
            } catch (IOException e) {
                if (e.getMessage() != null && e.getMessage().contains("Bad address") && Files.getFileStore(path).getUsableSpace() < n) {
                    throw new IOException("No space left on device: read(2) into the mapping of " + path + " at offset " + pos
                            + " failed with EFAULT, the page could not be allocated", e);
                }
                throw e;
            } finally {
                Unmapper.unmap(map);
            }
            pos += n;
        }
        return crc.getValue();
    }

    /** Sets the file's length (a sparse extension) so the windows map real file offsets, not past EOF. */
    private static void setLength(FileChannel file, long length) throws IOException {
        if (file.size() < length) {
            ByteBuffer last = ByteBuffer.allocate(1);
            while (last.hasRemaining()) {
                file.write(last, length - 1);
            }
        } else if (file.size() > length) {
            file.truncate(length);
        }
    }
}
