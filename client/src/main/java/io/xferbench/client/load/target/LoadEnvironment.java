package io.xferbench.client.load.target;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.MachineDescription;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Where a load run happened: the machine (from core) and the versions of the outside tools it drove. */
public final class LoadEnvironment {
    private static final ObjectMapper JSON = new ObjectMapper();

    private LoadEnvironment() {
    }

    /** The machine only: {@code client load} drives one server it did not start, with no outside tool. */
    public static Map<String, Object> describe() {
        return machine(null);
    }

    /**
     * The machine with the file system of the servers' data directory ({@code dataDir}), and the version of each
     * outside tool the bench drives: nginx and wrk are named only when they take part.
     */
    public static Map<String, Object> describe(Path dataDir, boolean nginxRuns, boolean wrkRuns) {
        Map<String, Object> env = machine(dataDir);
        if (nginxRuns) {
            NginxProcess.binary().ifPresent(n -> env.put("nginx", version(n, "-v")));
        }
        if (wrkRuns) {
            WrkRun.binary().ifPresent(w -> env.put("wrk", version(w, "-v")));
        }
        return env;
    }

    /** The machine's fields by name, the kernel settings kept typed for the table header (LoadReport#value). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> machine(Path dataDir) {
        MachineDescription machine = EnvironmentInfo.describe(dataDir);
        Map<String, Object> env = JSON.convertValue(machine, LinkedHashMap.class);
        env.put("tuning", machine.tuning());
        return env;
    }

    /** The first line a tool prints about its version ("nginx version: nginx/1.22.1"), or why not. */
    private static String version(Path tool, String flag) {
        try {
            Process p = new ProcessBuilder(tool.toString(), flag).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor(5, TimeUnit.SECONDS);
            return out.isEmpty() ? "unknown" : out.lines().findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
