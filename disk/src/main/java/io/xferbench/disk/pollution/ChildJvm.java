package io.xferbench.disk.pollution;

import io.xferbench.disk.MemoryCgroup;
import io.xferbench.nativeio.JvmFlags;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM on our class path started as a member of the memory cgroup (and, where util-linux's setpriv exists, with
 * SIGKILL as its parent-death signal so a killed bench leaves no child behind), read line by line.
 */
final class ChildJvm implements AutoCloseable {
    /** Small heap and serial GC: the JVM's own memory is charged to the cgroup and must leave room for cache. */
    static final List<String> FLAGS = List.of("-Xmx48m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    private final Process process;
    private final BufferedReader out;
    private final PrintStream in;

    private ChildJvm(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /** {@code prefix} goes before the {@code java} command: e.g. taskset's, to place it ({@link CpuPlacement}). */
    static ChildJvm start(MemoryCgroup group, List<String> prefix, String mainClass, List<String> args)
            throws IOException {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETPRIV)) {
            command.addAll(List.of(SETPRIV.toString(), "--pdeathsig", "KILL", "--"));
        }
        command.addAll(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(FLAGS);
        command.addAll(JvmFlags.required());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        return new ChildJvm(new ProcessBuilder(group.wrap(command)).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start());
    }

    /** The next line of the child's stdout, or null once it has closed it (exited). */
    String readLine() throws IOException {
        return out.readLine();
    }

    /** Sends {@code line} to the child's stdin at once. */
    void writeLine(String line) {
        in.println(line);
    }

    long pid() {
        return process.pid();
    }

    int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /** Kills the child and waits for it: its cgroup can be removed only once it has no members. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
