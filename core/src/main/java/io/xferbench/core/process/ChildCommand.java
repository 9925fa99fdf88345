package io.xferbench.core.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a child process: what goes before the program, and this JVM's {@code java} for a child JVM.
 * A child that must not outlive a killed parent (even by SIGKILL, when no shutdown hook runs) is started under
 * util-linux's setpriv, which sets its parent-death signal; where setpriv is missing it is started bare.
 */
public final class ChildCommand {
    /** The signal the kernel sends the child when its parent dies: TERM lets its own shutdown hooks clean up. */
    public enum DeathSignal { TERM, KILL }

    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    private final List<String> prefix;

    private ChildCommand(List<String> prefix) {
        this.prefix = List.copyOf(prefix);
    }

    /** Children that get {@code signal} when this process dies, where setpriv exists. */
    public static ChildCommand dyingWithParent(DeathSignal signal) {
        return dyingWithParent(signal, SETPRIV);
    }

    static ChildCommand dyingWithParent(DeathSignal signal, Path setpriv) {
        return Files.isExecutable(setpriv)
                ? new ChildCommand(List.of(setpriv.toString(), "--pdeathsig", signal.name(), "--"))
                : new ChildCommand(List.of());
    }

    /** Children started as they are, left to the parent's shutdown hooks. */
    public static ChildCommand plain() {
        return new ChildCommand(List.of());
    }

    /** The same, with {@code launcher} (taskset's, say) run after this prefix and before the program. */
    public ChildCommand then(List<String> launcher) {
        List<String> p = new ArrayList<>(prefix);
        p.addAll(launcher);
        return new ChildCommand(p);
    }

    /** {@code command} behind this prefix. */
    public List<String> of(List<String> command) {
        List<String> c = new ArrayList<>(prefix);
        c.addAll(command);
        return c;
    }

    /** A JVM on this class path running {@code mainClass}: this JVM's java, {@code flags}, then {@code args}. */
    public List<String> java(List<String> flags, String mainClass, List<String> args) {
        List<String> c = new ArrayList<>(List.of(javaExecutable()));
        c.addAll(flags);
        c.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        c.addAll(args);
        return of(c);
    }

    /** The java of the JDK this JVM runs on. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
