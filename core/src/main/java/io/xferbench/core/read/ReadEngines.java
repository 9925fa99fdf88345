package io.xferbench.core.read;

import java.util.List;
import java.util.Optional;

/** The file-read engines by name, in the order the disk table shows them. Add an engine here (its class plus this line). */
public final class ReadEngines {
    private ReadEngines() {
    }

    public static List<ReadEngine> all() {
        return List.of(new SyncChannelEngine(), new AsyncChannelEngine(), new MmapEngine(), new JnaDirectEngine(),
                new JdkDirectEngine(), new ReadAheadEngine(), new IoUringEngine(false), new IoUringEngine(true),
                new ReadAheadUringEngine(), new UringRawEngine(false), new UringRawEngine(true), new UringFixedEngine(false),
                new UringFixedEngine(true), new UringSqPollEngine(false), new UringSqPollEngine(true),
                new DontCacheEngine(), new UringDontCacheEngine());
    }

    public static Optional<ReadEngine> named(String name) {
        return all().stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
