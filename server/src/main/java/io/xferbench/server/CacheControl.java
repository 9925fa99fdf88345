package io.xferbench.server;

import java.io.IOException;
import java.nio.file.Path;

/** Puts a file into the cache state a request asks for and measures page-cache residency. */
final class CacheControl {
    private CacheControl() {
    }

    /** Applies CACHE_COLD / CACHE_WARM and returns the residency afterwards, per mille (-1 unknown). */
    static int prepare(Path file, int flags) throws IOException {
        return residency(file);
    }

    static int residency(Path file) {
        return -1;
    }
}
