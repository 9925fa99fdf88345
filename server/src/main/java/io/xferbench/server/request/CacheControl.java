package io.xferbench.server.request;

import io.xferbench.core.protocol.Flags;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.nativeio.PageCache;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Puts a file into the cache state a request asks for and measures page-cache residency (mincore). Cold:
 * dirty pages synced, then POSIX_FADV_DONTNEED before every transfer. Warm: read through the page cache
 * when not already fully resident, so a warm window counts no warming reads once the file is in memory.
 */
public final class CacheControl {
    private CacheControl() {
    }

    /** Applies CACHE_COLD / CACHE_WARM and returns the residency afterwards, per mille (-1 unknown). */
    public static int prepare(Path file, int flags) throws IOException {
        if (!NativeSupport.available()) {
            if (Flags.has(flags, Flags.CACHE_COLD)) {
                throw new IOException("--cache cold needs the native shim: " + NativeSupport.unavailableReason());
            }
            return -1;
        }
        if (Flags.has(flags, Flags.CACHE_COLD)) {
            PageCache.evict(file);
        } else if (Flags.has(flags, Flags.CACHE_WARM) && PageCache.residency(file).permille() < 1000) {
            PageCache.warm(file);
        }
        return residency(file);
    }

    public static int residency(Path file) {
        try {
            return NativeSupport.available() ? (int) PageCache.residency(file).permille() : -1;
        } catch (NativeException e) {
            return -1;
        }
    }
}
