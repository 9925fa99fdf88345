package io.xferbench.server;

import io.xferbench.core.method.Availability;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.nativeio.DontCacheProbe;
import io.xferbench.nativeio.NativeException;
import java.nio.file.Path;

/**
 * Whether dontcache can serve {@code file}: the method's availability says only that the kernel has the flag, while
 * the file system of a test's data directory (a tmpfs /tmp, say) may refuse it, and the server then refuses the
 * request. Tests pass this to MethodAssumptions.
 */
final class DontCacheHere {
    private DontCacheHere() {
    }

    static Availability forFile(Path file) throws NativeException {
        Availability kernel = DownloadMethods.byId("dontcache").orElseThrow().availability();
        if (!kernel.isAvailable()) {
            return kernel;
        }
        String reason = DontCacheProbe.unsupportedReason(file);
        return reason == null ? Availability.AVAILABLE : Availability.unavailable(reason);
    }
}
