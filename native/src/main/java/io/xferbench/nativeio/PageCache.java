package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * How much of a file sits in the page cache, and moving it in or out, so a benchmark can say whether it read
 * from memory or from the device. Residency is measured like vmtouch: map the file (no pages are touched),
 * ask mincore(2) which pages are resident, unmap.
 * <p>
 * Since Linux 5.0 mincore reports page-cache state only for files the caller owns or could open for writing;
 * for other files it reports every page as resident (a side channel closed), so such a file reads as 100 %.
 */
public final class PageCache {
    /** Map at most 1 GiB at a time (page-aligned, as mmap offsets must be): bounds address space and the vector. */
    private static final long WINDOW = 1L << 30;

    private PageCache() {
    }

    /**
     * Resident pages out of the file's pages.
     *
     * @param residentPages pages of the file in the page cache
     * @param totalPages    ceil(size / page size); 0 for an empty file
     */
    public record Residency(long residentPages, long totalPages) {
        /** Resident share in [0, 1]; an empty file counts as fully resident (nothing to fetch from the device). */
        public double fraction() {
            return totalPages == 0 ? 1.0 : (double) residentPages / totalPages;
        }

        /** Resident share in thousandths, rounded down; 1000 for an empty file. */
        public long permille() {
            return totalPages == 0 ? 1000 : residentPages * 1000 / totalPages;
        }
    }

    public static Residency residency(Path path) throws NativeException {
        NativeSupport.check();
        int fd = open(path);
        try {
            long size = Statx.of(fd, Libc.STATX_SIZE).size();
            long page = AlignedBuffers.pageSize();
            long resident = 0;
            byte[] vec = new byte[(int) (Math.min(size, WINDOW) / page + 1)];
            for (long offset = 0; offset < size; offset += WINDOW) {
                long length = Math.min(WINDOW, size - offset);
                long address = Libc.mmap(0, length, Libc.PROT_READ, Libc.MAP_SHARED, fd, offset);
                try {
                    Libc.mincore(address, length, vec);
                } finally {
                    Libc.munmap(address, length);
                }
                int pages = (int) ((length + page - 1) / page);
                for (int i = 0; i < pages; i++) {
                    resident += vec[i] & 1; // bit 0: resident; the other bits are reserved
                }
            }
            return new Residency(resident, (size + page - 1) / page);
        } catch (LastErrorException e) {
            throw NativeException.of("statx/mmap/mincore(" + path + ")", e);
        } finally {
            closeQuietly(fd);
        }
    }

    /**
     * Drops the file from the page cache: fdatasync(2) first, because POSIX_FADV_DONTNEED skips dirty pages, then
     * posix_fadvise(POSIX_FADV_DONTNEED). Pages another process has mapped stay resident.
     */
    public static void evict(Path path) throws NativeException {
        NativeSupport.check();
        int fd = open(path);
        try {
            try {
                Libc.fdatasync(fd);
            } catch (LastErrorException e) {
                throw NativeException.of("fdatasync(" + path + ")", e);
            }
            int error = Libc.posix_fadvise(fd, 0, 0, Libc.POSIX_FADV_DONTNEED);
            if (error != 0) {
                throw new NativeException("posix_fadvise(" + path + ", POSIX_FADV_DONTNEED)", error);
            }
        } finally {
            closeQuietly(fd);
        }
    }

    /**
     * Writes back every dirty page of the file system holding {@code path} and waits for it (syncfs(2)), so what
     * was written before is not written back during what is measured next.
     */
    public static void syncFileSystem(Path path) throws NativeException {
        NativeSupport.check();
        int fd = open(path);
        try {
            Libc.syncfs(fd);
        } catch (LastErrorException e) {
            throw NativeException.of("syncfs(" + path + ")", e);
        } finally {
            closeQuietly(fd);
        }
    }

    /** Pulls the whole file into the page cache: POSIX_FADV_WILLNEED (starts readahead), then a buffered read of every byte. */
    public static void warm(Path path) throws NativeException {
        NativeSupport.check();
        int fd = open(path);
        try {
            int error = Libc.posix_fadvise(fd, 0, 0, Libc.POSIX_FADV_WILLNEED);
            if (error != 0) {
                throw new NativeException("posix_fadvise(" + path + ", POSIX_FADV_WILLNEED)", error);
            }
            // WILLNEED is only a hint (readahead may stop under memory pressure), so read it all.
            ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
            long address = AlignedBuffers.address(buffer);
            long position = 0;
            while (true) {
                long n;
                try {
                    n = Libc.pread64(fd, address, buffer.capacity(), position);
                } catch (LastErrorException e) {
                    if (e.getErrorCode() == Errno.EINTR) {
                        continue;
                    }
                    throw NativeException.of("pread(" + path + ", offset " + position + ")", e);
                }
                if (n == 0) {
                    return;
                }
                position += n;
            }
        } finally {
            closeQuietly(fd);
        }
    }

    private static int open(Path path) throws NativeException {
        try {
            return Libc.open(Libc.path(path), Libc.O_RDONLY | Libc.O_CLOEXEC, 0);
        } catch (LastErrorException e) {
            throw NativeException.of("open(" + path + ", O_RDONLY)", e);
        }
    }

    private static void closeQuietly(int fd) {
        try {
            Libc.close(fd);
        } catch (LastErrorException ignored) {
            // Nothing was written through this read-only fd, so a failed close loses nothing.
        }
    }
}
