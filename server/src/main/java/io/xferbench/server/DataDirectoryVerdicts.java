package io.xferbench.server;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.send.DontCacheSender;
import java.nio.file.Path;
import java.util.Map;

/**
 * Download methods whose availability the data directory's file system decides, not the kernel alone, probed once at
 * server start for INFO ({@code dontcache}: 6.18 has RWF_DONTCACHE, its tmpfs refuses it). Other methods answer for
 * themselves.
 *
 * @param byMethod the verdict per method id
 */
record DataDirectoryVerdicts(Map<String, Availability> byMethod) {
    DataDirectoryVerdicts {
        byMethod = Map.copyOf(byMethod);
    }

    static DataDirectoryVerdicts probe(Path dataDir) {
        return new DataDirectoryVerdicts(Map.of(DontCacheSender.METHOD.id(), DontCacheSender.availabilityIn(dataDir)));
    }

    /** The data directory's verdict on {@code method}, or the method's own availability. */
    Availability of(SenderMethod method) {
        return byMethod.getOrDefault(method.id(), method.availability());
    }
}
