package io.xferbench.core.read;

import java.util.List;
import java.util.Optional;

/**
 * The file-read engines by name. io_uring readers (io.xferbench.core.iouring, another change) are added here
 * once they implement {@link ReadEngine}; until then the disk table has no Java io_uring row.
 */
public final class ReadEngines {
    private ReadEngines() {
    }

    public static List<ReadEngine> all() {
        return List.of(new SyncChannelEngine(), new AsyncChannelEngine(), new MmapEngine(), new JnaDirectEngine(),
                new JdkDirectEngine(), new ReadAheadEngine());
    }

    public static Optional<ReadEngine> named(String name) {
        return all().stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
