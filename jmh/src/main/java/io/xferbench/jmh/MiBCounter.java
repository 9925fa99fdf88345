package io.xferbench.jmh;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Mebibytes moved, reported by JMH as the secondary result {@code MiB} in "ops/s", i.e. MiB/s. JMH does not
 * reset aux counters between iterations; the iteration-level reset does (it only zeroes a field, so it adds
 * nothing to the syscall counts).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class MiBCounter {
    private static final double MIB = 1024.0 * 1024.0;

    /** The field name is the label JMH prints. */
    public double MiB;

    @Setup(Level.Iteration)
    public void reset() {
        MiB = 0;
    }

    public void add(long bytes) {
        MiB += bytes / MIB;
    }
}
