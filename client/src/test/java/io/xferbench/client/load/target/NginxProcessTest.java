package io.xferbench.client.load.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** nginx as the bench runs it: serves the data directory byte-exact, and leaves no process or directory behind. */
@Timeout(120)
class NginxProcessTest {
    private static final int FILE = 50 * 1024;

    @TempDir
    Path dataDir;

    private Path nginx() {
        var binary = NginxProcess.binary();
        MethodAssumptions.assumeAvailable("nginx", binary.isPresent() ? Availability.AVAILABLE
                : Availability.unavailable(NginxProcess.missingReason()));
        return binary.orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(NginxProcess.Design.class)
    void servesTheGeneratedFileByteExactAndStopsWithoutATrace(NginxProcess.Design design) throws Exception {
        Path nginx = nginx();
        NginxProcess.makeServable(dataDir);
        ByteBuffer body = ByteBuffer.allocate(FILE);
        new ContentGenerator(DataDirectory.SEED).fill(body, 0);
        Files.write(dataDir.resolve(DataDirectory.generatedName(FILE)), body.array());
        int crc = new ContentGenerator(DataDirectory.SEED).crc32c(FILE);

        NginxProcess n = NginxProcess.start(nginx, dataDir, design, 64);
        List<Long> pids;
        Path dir = n.dir();
        // Beside the data directory, on its file system: a PUT's temp file is renamed into it, not copied.
        assertThat(dir.getParent()).isEqualTo(dataDir.toAbsolutePath().getParent());
        try {
            pids = n.processes().pids();
            assertThat(pids).hasSizeGreaterThan(1); // master and its workers
            LoadResult r = LoadEngine.run(new LoadPlan(n.address(), 8, 2, 200, null, Duration.ZERO, 0, Duration.ofSeconds(10)),
                    n.downloads(FILE, crc).get("http"));
            assertThat(r.errors()).isEmpty();
            assertThat(r.requests()).isEqualTo(200);
        } finally {
            n.close();
        }
        assertThat(pids).noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        assertThat(dir).doesNotExist();
    }

    /**
     * A master killed under the bench (SIGKILL: its workers are orphaned, keep the port and serve on) still leaves no
     * worker behind when the bench stops nginx. Found by SIGKILLing the master 9 s into scripts/bench-load: both
     * workers ran on, parent 1, after the bench had ended and removed their directory.
     */
    @Test
    void workersOrphanedByAKilledMasterAreStoppedToo() throws Exception {
        Path nginx = nginx();
        NginxProcess.makeServable(dataDir);
        NginxProcess n = NginxProcess.start(nginx, dataDir, NginxProcess.Design.SENDFILE, 64);
        List<ProcessHandle> workers;
        try {
            workers = n.processes().pids().stream().skip(1).map(ProcessHandle::of).flatMap(java.util.Optional::stream).toList();
            assertThat(workers).isNotEmpty();
            ProcessHandle master = ProcessHandle.of(n.processes().pids().get(0)).orElseThrow();
            master.destroyForcibly();
            master.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(workers).as("orphaned workers run on").allMatch(ProcessHandle::isAlive);
        } finally {
            n.close();
        }
        try {
            for (ProcessHandle w : workers) {
                w.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            }
            assertThat(workers).noneMatch(ProcessHandle::isAlive);
        } finally {
            workers.forEach(ProcessHandle::destroyForcibly); // what a failing run left
        }
    }

    @Test
    void aMissingFileIsAnErrorNotAResult() throws Exception {
        Path nginx = nginx();
        NginxProcess.makeServable(dataDir);
        try (NginxProcess n = NginxProcess.start(nginx, dataDir, NginxProcess.Design.SENDFILE, 64)) {
            LoadResult r = LoadEngine.run(new LoadPlan(n.address(), 2, 1, 20, null, Duration.ZERO, 0, Duration.ofSeconds(10)),
                    n.downloads(FILE, 0).get("http"));
            assertThat(r.requests()).isZero();
            assertThat(r.errors()).containsEntry("http 404", 20L);
        }
    }

    @Test
    void aDirectoryLeftByAKilledBenchIsRemovedAndALiveOnesIsKept(@TempDir Path otherParent) throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Path stale = Files.createTempDirectory(tmp, "xferbench-nginx-");
        Path live = Files.createTempDirectory(tmp, "xferbench-nginx-");
        // A bench run with --data-parent made its nginx directory there.
        Path staleElsewhere = Files.createTempDirectory(otherParent, "xferbench-nginx-");
        try {
            Process dead = new ProcessBuilder("true").start();
            dead.waitFor();
            for (Path d : List.of(stale, staleElsewhere)) {
                Files.writeString(d.resolve("owner.pid"), Long.toString(dead.pid()));
                Files.writeString(d.resolve("nginx.conf"), "left behind");
            }
            Files.writeString(live.resolve("owner.pid"), Long.toString(ProcessHandle.current().pid()));
            NginxProcess.removeStale();
            assertThat(stale).doesNotExist();
            assertThat(live).exists();
            assertThat(staleElsewhere).exists();
            NginxProcess.removeStale(otherParent);
            assertThat(staleElsewhere).doesNotExist();
        } finally {
            OwnedTempDirs.delete(stale);
            OwnedTempDirs.delete(live);
            OwnedTempDirs.delete(staleElsewhere);
        }
    }
}
