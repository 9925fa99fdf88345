package io.xferbench.client.netpath;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs {@code ip}, {@code tc} and the like to completion: stdout on success, their one-line complaint otherwise. */
final class HostCommand {
    private static final long TIMEOUT_SECONDS = 30;

    private HostCommand() {
    }

    static String run(String... command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(command));
        cmd.set(0, locate(cmd.get(0)));
        Process p = new ProcessBuilder(cmd).start();
        p.getOutputStream().close();
        // stderr read beside stdout, so a chatty tool never blocks on a full pipe.
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p, true));
        String out = read(p, false);
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + ": no answer in " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", command) + ": interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + ": " + err.join().strip().replace('\n', ' '));
        }
        return out;
    }

    /** ip, tc and taskset live in /usr/sbin or /sbin, which a non-login PATH may lack. */
    static String locate(String tool) throws IOException {
        if (tool.contains("/")) {
            return tool;
        }
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String dir : dirs) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return Path.of(dir, tool).toString();
            }
        }
        throw new IOException(tool + " not installed");
    }

    private static String read(Process p, boolean stderr) {
        try {
            return new String((stderr ? p.getErrorStream() : p.getInputStream()).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
