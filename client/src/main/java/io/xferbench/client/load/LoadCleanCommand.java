package io.xferbench.client.load;

import io.xferbench.client.load.bench.LoadBenchCommand;
import io.xferbench.client.load.fileops.CreatedFiles;
import io.xferbench.client.load.target.NginxProcess;
import io.xferbench.client.load.target.OwnedTempDirs;
import io.xferbench.core.data.DataDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code client load clean}: removes what load runs left behind when they were killed. A finished run leaves
 * nothing: its uploads are deleted after each row, and a bench removes its servers and directories on exit.
 */
@Command(name = "clean", mixinStandardHelpOptions = true,
        description = "Remove what killed load runs left: benches' temporary directories (and servers still running in "
                + "them) whose owner is gone, and with --data-dir the load's upload files (" + CreatedFiles.PREFIX + "*) "
                + "in a server's data directory.")
final class LoadCleanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--data-dir", description = "A server's data directory on this machine: remove the load's upload "
            + "files in it (and their checksum records), but not those of a run still alive on this machine (the pid in "
            + "their name), unless --all.")
    Path dataDir;

    @Option(names = "--all", description = "With --data-dir: remove every load upload file, also those whose name's pid "
            + "is a process alive on this machine (kept otherwise: a load run may be using them).")
    boolean all;

    @Option(names = "--data-parent", description = "Also look here for killed benches' directories (what load-bench "
            + "--data-parent named); the JVM's temporary directory is always looked at.")
    Path dataParent;

    @Override
    public Integer call() throws Exception {
        if (dataDir != null && !Files.isDirectory(dataDir)) {
            throw new ParameterException(spec.commandLine(), "--data-dir " + dataDir + " is not a directory");
        }
        if (dataParent != null && !Files.isDirectory(dataParent)) {
            throw new ParameterException(spec.commandLine(), "--data-parent " + dataParent + " is not a directory");
        }
        OwnedTempDirs.removeStale(LoadBenchCommand.DATA_DIR_PREFIX);
        NginxProcess.removeStale();
        if (dataParent != null) {
            OwnedTempDirs.removeStale(dataParent, LoadBenchCommand.DATA_DIR_PREFIX);
            NginxProcess.removeStale(dataParent);
        }
        if (dataDir != null) {
            Removal r = removeUploads(new DataDirectory(dataDir), all);
            System.err.println("xferbench: removed " + r.removed() + " load upload file(s) from " + dataDir
                    + (r.keptLive() > 0 ? "; kept " + r.keptLive() + " of runs still alive (--all removes them too)" : ""));
        }
        return 0;
    }

    /**
     * @param removed  files removed (a file another process removed first is not counted)
     * @param keptLive files left because the pid in their name is a live process here
     */
    record Removal(int removed, int keptLive) {
    }

    static Removal removeUploads(DataDirectory data, boolean evenOfLiveRuns) throws IOException {
        List<String> names;
        try (Stream<Path> files = Files.list(data.root())) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(CreatedFiles.PREFIX)).toList();
        }
        int removed = 0;
        int kept = 0;
        for (String name : names) {
            if (!evenOfLiveRuns && ofLiveProcess(name)) {
                kept++;
                continue;
            }
            try {
                data.delete(name);
                removed++;
            } catch (NoSuchFileException gone) {
                // Removed meanwhile: nothing left to do.
            }
        }
        return new Removal(removed, kept);
    }

    /**
     * Whether the pid in a load file's name ({@code xferbench-load-<pid>-...}) is a live process on this machine. A
     * run on another machine cannot be told from here: its files go unless their pid happens to be alive here too.
     */
    static boolean ofLiveProcess(String name) {
        String rest = name.substring(CreatedFiles.PREFIX.length());
        int dash = rest.indexOf('-');
        if (dash <= 0) {
            return false;
        }
        try {
            return ProcessHandle.of(Long.parseLong(rest.substring(0, dash))).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException notAPid) {
            return false;
        }
    }
}
