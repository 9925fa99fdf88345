package io.xferbench.client.load.report;

import io.xferbench.client.load.target.LoadEnvironment;
import io.xferbench.core.metrics.HostTuning;
import io.xferbench.core.metrics.MachineDescription;

/** Environments and settings for tests that render load reports and charts without measuring a machine. */
public final class TestEnvironments {
    /** Nothing known: tests of the rows, not of the header. */
    public static final LoadEnvironment NONE = machine(null, null, 0, null, -1, null);
    public static final LoadSettings SETTINGS = new LoadSettings.Load("1KiB", 1, null, "1000 ms", "0 ms", "closed");

    private TestEnvironments() {
    }

    public static LoadEnvironment machine(String jdk, String kernel, int cpus, String cpusAllowed) {
        return machine(jdk, kernel, cpus, cpusAllowed, -1, null);
    }

    public static LoadEnvironment machine(String jdk, String kernel, int cpus, String cpusAllowed, long memoryBytes, HostTuning tuning) {
        return new LoadEnvironment(new MachineDescription(jdk, null, kernel, cpus, null, cpusAllowed, memoryBytes, null, null, null, null,
                null, tuning, null, null), null, null);
    }
}
