package io.xferbench.core.read;

import java.util.List;
import java.util.Optional;

/** The file-read engines by name, in the order the disk table shows them. Add an engine here (its class plus this line). */
public final class ReadEngines {
    private ReadEngines() {
    }

    public static List<ReadEngine> all() {
        return List.of(
                new SyncChannelEngine(),
                new AsyncChannelEngine(),
                new MmapEngine(),
                new JnaDirectEngine(),
                new JdkDirectEngine(),
                new ReadAheadEngine(),
                new IoUringEngine(false),
                new IoUringEngine(true),
                new ReadAheadUringEngine(),
                OwnRingEngine.raw(false),
                OwnRingEngine.raw(true),
                OwnRingEngine.fixed(false),
                OwnRingEngine.fixed(true),
                OwnRingEngine.sqPoll(false),
                OwnRingEngine.sqPoll(true),
                new DontCacheEngine(),
                OwnRingEngine.dontCache());
    }

    public static Optional<ReadEngine> named(String name) {
        return all().stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
