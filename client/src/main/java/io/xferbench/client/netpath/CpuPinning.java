package io.xferbench.client.netpath;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Separate CPUs for the server and the client, as two machines would have: the first and the last CPU this
 * process may use. None on a machine (or cpuset) with a single CPU, where pinning both to it would only add
 * scheduling artefacts.
 */
record CpuPinning(int serverCpu, int clientCpu) {

    static Optional<CpuPinning> plan() {
        List<Integer> cpus = allowedCpus();
        return cpus.size() < 2 ? Optional.empty() : Optional.of(new CpuPinning(cpus.get(0), cpus.get(cpus.size() - 1)));
    }

    /** {@code taskset -c CPU} before a command. */
    static List<String> taskset(int cpu) {
        return List.of("taskset", "-c", Integer.toString(cpu));
    }

    /** The CPUs in this process's affinity mask ({@code Cpus_allowed_list}, e.g. {@code 0-3,8}). */
    static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseList(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Unknown affinity: run unpinned rather than guess.
        }
        return List.of();
    }

    static List<Integer> parseList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] range = part.strip().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            for (int cpu = from; cpu <= to; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }
}
