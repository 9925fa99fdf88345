package io.xferbench.client.load.target;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.MachineDescription;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Where a load run happened: the machine (from core) and the version of each outside tool it drove.
 *
 * @param nginx nginx's version line when nginx takes part, else not written
 * @param wrk   wrk's version line when wrk takes part, else not written
 */
public record LoadEnvironment(@JsonUnwrapped MachineDescription machine, @JsonInclude(JsonInclude.Include.NON_NULL) String nginx,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String wrk) {

    /** The machine only: {@code client load} drives one server it did not start, with no outside tool. */
    public static LoadEnvironment describe() {
        return new LoadEnvironment(EnvironmentInfo.describe(null), null, null);
    }

    /**
     * The machine with the file system of the servers' data directory ({@code dataDir}), and the version of each
     * outside tool the bench drives: nginx and wrk are named only when they take part.
     */
    public static LoadEnvironment describe(Path dataDir, boolean nginxRuns, boolean wrkRuns) {
        return new LoadEnvironment(EnvironmentInfo.describe(dataDir),
                nginxRuns ? NginxProcess.binary().map(n -> version(n, "-v")).orElse(null) : null,
                wrkRuns ? WrkRun.binary().map(w -> version(w, "-v")).orElse(null) : null);
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
