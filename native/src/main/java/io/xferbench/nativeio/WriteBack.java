package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.channels.FileChannel;

/**
 * Writes a file's dirty page-cache pages back and waits for them, in one {@code sync_file_range(2)} with
 * WAIT_BEFORE|WRITE|WAIT_AFTER over the whole file. Why: a page stored to through a shared mapping ({@code MAP_SHARED})
 * stays writable while it is dirty, so further stores to it change the file's bytes without a fault and without
 * touching its mtime or ctime. Writeback write-protects the page again: the next store faults ({@code page_mkwrite})
 * and the file system sets the times, which a statx taken before sees as moved (multigrain timestamps, Linux 6.13+,
 * even within one clock tick). Not fdatasync: the device's cache flush and the metadata it adds buy durability, which
 * this does not need. On a file system that does not track dirty shared pages (tmpfs) this does nothing.
 */
public final class WriteBack {
    private WriteBack() {
    }

    /**
     * Writes back every dirty page of {@code channel}'s file and waits until none is under writeback.
     *
     * @param shown how a failure names the file
     * @throws NativeException with the errno (EIO, ENOSPC: the pages stay dirty; ESPIPE: not a file)
     */
    public static void dirtyPages(FileChannel channel, String shown) throws NativeException {
        NativeSupport.check();
        try {
            Libc.sync_file_range(Fds.of(channel), 0, 0, Libc.SYNC_FILE_RANGE_WAIT_BEFORE | Libc.SYNC_FILE_RANGE_WRITE
                    | Libc.SYNC_FILE_RANGE_WAIT_AFTER);
        } catch (LastErrorException e) {
            throw NativeException.of("sync_file_range(" + shown + ")", e);
        }
    }
}
