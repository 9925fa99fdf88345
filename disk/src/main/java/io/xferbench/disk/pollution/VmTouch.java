package io.xferbench.disk.pollution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A second opinion on residency: vmtouch (Debian package vmtouch) run over the same files as the in-tool mincore
 * count, so the report can show both at the same moment. Null where vmtouch is not installed.
 */
final class VmTouch {
    private static final List<Path> CANDIDATES = List.of(Path.of("/usr/bin/vmtouch"), Path.of("/usr/local/bin/vmtouch"));
    private static final Pattern RESIDENT = Pattern.compile("Resident Pages:\\s+(\\d+)/(\\d+)");

    /** Resident and total pages as vmtouch counts them. */
    record Pages(long resident, long total) {
        double percent() {
            return total == 0 ? 100 : 100.0 * resident / total;
        }
    }

    private VmTouch() {
    }

    static Path path() {
        return CANDIDATES.stream().filter(Files::isExecutable).findFirst().orElse(null);
    }

    /** vmtouch's count over {@code files} (it only looks: no -t, -e or -l), or null without vmtouch. */
    static Pages residency(List<Path> files) throws IOException, InterruptedException {
        Path vmtouch = path();
        if (vmtouch == null) {
            return null;
        }
        List<String> command = new ArrayList<>(List.of(vmtouch.toString()));
        files.forEach(f -> command.add(f.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("vmtouch failed: " + out.strip());
            }
        } finally {
            p.destroyForcibly();
        }
        Matcher m = RESIDENT.matcher(out);
        if (!m.find()) {
            throw new IOException("no 'Resident Pages' in vmtouch's output: " + out.strip());
        }
        return new Pages(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
    }
}
