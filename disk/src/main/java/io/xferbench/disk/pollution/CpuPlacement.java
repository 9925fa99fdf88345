package io.xferbench.disk.pollution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Where the scenario's processes run. Split (the default where this process may use two CPUs or more): the big reader
 * on the last allowed CPU, the server and this JVM (the clients, the sampler) on the others, so the hot set's
 * latency shows what the big read does to the page cache, not the CPU the reader takes: on a 2-vCPU machine an
 * O_DIRECT reader at 1 GiB/s with its checksum takes half the machine, and the hot requests' p99 rose 2-3.5× in
 * O_DIRECT modes that kept every hot page (docs/disk.md). Shared: nothing is pinned. Pinning is util-linux's
 * {@code taskset}; a child's affinity is read back from /proc before its numbers count.
 */
final class CpuPlacement {
    private static final Path TASKSET = Path.of("/usr/bin/taskset");

    private final List<Integer> reader;
    private final List<Integer> others;
    private final List<Integer> allowed;
    private final String sharedReason;

    private CpuPlacement(List<Integer> allowed, List<Integer> reader, List<Integer> others, String sharedReason) {
        this.allowed = allowed;
        this.reader = reader;
        this.others = others;
        this.sharedReason = sharedReason;
    }

    /** Split when asked and possible here; otherwise shared, with the reason. */
    static CpuPlacement of(boolean split) throws IOException {
        return decide(split, allowedCpus(ProcessHandle.current().pid()), Files.isExecutable(TASKSET));
    }

    static CpuPlacement decide(boolean split, List<Integer> allowed, boolean taskset) {
        if (!split) {
            return new CpuPlacement(allowed, List.of(), List.of(), "--cpus shared");
        }
        if (allowed.size() < 2) {
            return new CpuPlacement(allowed, List.of(), List.of(), "this process may use one CPU only");
        }
        if (!taskset) {
            return new CpuPlacement(allowed, List.of(), List.of(), TASKSET + " not found (util-linux)");
        }
        return new CpuPlacement(allowed, List.of(allowed.getLast()), allowed.subList(0, allowed.size() - 1), null);
    }

    boolean split() {
        return sharedReason == null;
    }

    /** Prefix of the big reader's command line (empty when shared). */
    List<String> readerPrefix() {
        return prefix(reader);
    }

    /** Prefix of the server's command line (empty when shared). */
    List<String> serverPrefix() {
        return prefix(others);
    }

    private List<String> prefix(List<Integer> cpus) {
        return split() ? List.of(TASKSET.toString(), "--cpu-list", list(cpus)) : List.of();
    }

    /** Moves every thread of this JVM to the others' CPUs (later threads inherit it); {@link #restore} undoes it. */
    void pinThisJvm() throws IOException {
        if (split()) {
            setAll(others);
        }
    }

    /** Every thread of this JVM back on the CPUs it was allowed at the start. */
    void restore() throws IOException {
        if (split()) {
            setAll(allowed);
        }
    }

    /**
     * taskset lists this JVM's threads, then sets each, and stops with an error if one exits in between (a JVM starts
     * and stops threads of its own: compiler threads, pool workers; not seen in 200 tries against a process churning
     * threads, but nothing rules it out); every attempt sets them all again, so a retry completes it.
     */
    private static void setAll(List<Integer> cpus) throws IOException {
        String last = "";
        for (int attempt = 0; attempt < 5; attempt++) {
            Process p = new ProcessBuilder(TASKSET.toString(), "--all-tasks", "--cpu-list", "--pid", list(cpus),
                    Long.toString(ProcessHandle.current().pid())).redirectErrorStream(true).start();
            try {
                last = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (p.waitFor() == 0) {
                    return;
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while pinning this JVM", e);
            }
        }
        throw new IOException("taskset could not pin this JVM to CPUs " + list(cpus) + ": " + last);
    }

    /** Fails unless the big reader {@code pid} may run exactly where it was put. */
    void checkReader(long pid) throws IOException {
        check("the big reader", pid, reader);
    }

    /** Fails unless the server {@code pid} may run exactly where it was put. */
    void checkServer(long pid) throws IOException {
        check("the server", pid, others);
    }

    private void check(String who, long pid, List<Integer> expected) throws IOException {
        if (!split()) {
            return;
        }
        List<Integer> actual = allowedCpus(pid);
        if (!actual.equals(expected)) {
            throw new IOException(who + " (pid " + pid + ") may run on CPUs " + list(actual) + ", not "
                    + list(expected) + " as placed");
        }
    }

    /** For the report's environment. */
    String describe() {
        if (!split()) {
            return "shared: nothing pinned (" + sharedReason + "); the big reader competes with the server and the "
                    + "clients for CPUs " + list(allowed);
        }
        return "split: the big reader on CPU " + list(reader) + ", the server, the clients and the sampler on CPU "
                + list(others) + " (taskset, read back from /proc/PID/status; --cpus shared to share them)";
    }

    /** The CPUs a process may run on: its Cpus_allowed_list (e.g. {@code 0-3,6}). */
    static List<Integer> allowedCpus(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return parseList(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IOException("no Cpus_allowed_list in /proc/" + pid + "/status");
    }

    static List<Integer> parseList(String text) {
        TreeSet<Integer> cpus = new TreeSet<>();
        for (String part : text.split(",")) {
            String[] range = part.trim().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return new ArrayList<>(cpus);
    }

    static String list(List<Integer> cpus) {
        return cpus.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
