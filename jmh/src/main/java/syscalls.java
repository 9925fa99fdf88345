import io.xferbench.jmh.profile.SyscallProfiler;

/**
 * The short name {@code -prof syscalls}. JMH 1.37 resolves a profiler name against its built-in table, then the
 * canonical names of profilers found through {@code META-INF/services/org.openjdk.jmh.profile.Profiler}, then
 * {@code Class.forName}: a service entry alone gives no short name, but a class in the unnamed package whose
 * canonical name is {@code syscalls} does (and is listed by {@code -lprof}). Everything is in
 * {@link SyscallProfiler}.
 */
public class syscalls extends SyscallProfiler {
}
