package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;

/**
 * {@code getrusage(2)} for the process or the calling thread. Unlike {@code /proc/self/status}, it counts
 * context switches of every thread (RUSAGE_SELF) or exactly the caller (RUSAGE_THREAD).
 *
 * @param userMicros             user CPU time
 * @param systemMicros           system CPU time
 * @param voluntarySwitches      ru_nvcsw: the thread gave up the CPU (blocked)
 * @param involuntarySwitches    ru_nivcsw: the scheduler took the CPU away
 * @param minorFaults            page faults served without I/O
 * @param majorFaults            page faults that needed I/O
 * @param blockInputs            ru_inblock: 512-byte blocks read from storage
 * @param blockOutputs           ru_oublock: 512-byte blocks written to storage
 */
public record ResourceUsage(long userMicros, long systemMicros, long voluntarySwitches, long involuntarySwitches,
                            long minorFaults, long majorFaults, long blockInputs, long blockOutputs) {

    public static final ResourceUsage ZERO = new ResourceUsage(0, 0, 0, 0, 0, 0, 0, 0);

    /** Whole process, all threads. */
    public static ResourceUsage process() throws NativeException {
        return of(Libc.RUSAGE_SELF, "getrusage(RUSAGE_SELF)");
    }

    /** Children that have ended and been waited for (e.g. a load generator run as a child process). */
    public static ResourceUsage children() throws NativeException {
        return of(Libc.RUSAGE_CHILDREN, "getrusage(RUSAGE_CHILDREN)");
    }

    /** The calling thread only. */
    public static ResourceUsage thread() throws NativeException {
        return of(Libc.RUSAGE_THREAD, "getrusage(RUSAGE_THREAD)");
    }

    private static ResourceUsage of(int who, String call) throws NativeException {
        NativeSupport.check();
        // struct rusage on x86_64: two struct timeval (sec, usec) then 14 longs.
        long[] u = new long[18];
        try {
            Libc.getrusage(who, u);
        } catch (LastErrorException e) {
            throw NativeException.of(call, e);
        }
        return new ResourceUsage(u[0] * 1_000_000L + u[1], u[2] * 1_000_000L + u[3],
                u[16], u[17], u[8], u[9], u[11], u[12]);
    }

    public ResourceUsage minus(ResourceUsage earlier) {
        return new ResourceUsage(userMicros - earlier.userMicros, systemMicros - earlier.systemMicros,
                voluntarySwitches - earlier.voluntarySwitches, involuntarySwitches - earlier.involuntarySwitches,
                minorFaults - earlier.minorFaults, majorFaults - earlier.majorFaults,
                blockInputs - earlier.blockInputs, blockOutputs - earlier.blockOutputs);
    }

    public double userSeconds() {
        return userMicros / 1e6;
    }

    public double systemSeconds() {
        return systemMicros / 1e6;
    }

    public long contextSwitches() {
        return voluntarySwitches + involuntarySwitches;
    }
}
