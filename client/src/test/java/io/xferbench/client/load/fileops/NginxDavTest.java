package io.xferbench.client.load.fileops;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.HttpDeleteExchange;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.client.load.exchange.HttpPutExchange;
import io.xferbench.client.load.target.NginxProcess;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Uploads and deletes over HTTP against nginx's dav module, as the bench runs them: every PUT lands byte-exact and is
 * read back after the run, every DELETE removes, and nothing is left in the data directory, nginx's directory or
 * its body temp directory.
 */
@Timeout(120)
class NginxDavTest {
    private static final int FILE = 20 * 1024;
    private static final int CRC = new ContentGenerator(DataDirectory.SEED).crc32c(FILE);

    @TempDir
    Path dataDir;

    private Path nginx() throws IOException {
        var binary = NginxProcess.binary();
        MethodAssumptions.assumeAvailable("nginx", binary.isPresent() ? Availability.AVAILABLE
                : Availability.unavailable(NginxProcess.missingReason()));
        NginxProcess.makeServable(dataDir);
        return binary.orElseThrow();
    }

    private List<Path> loadFiles() throws IOException {
        try (Stream<Path> s = Files.list(dataDir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(CreatedFiles.PREFIX)).toList();
        }
    }

    private static LoadPlan byCount(NginxProcess n, int connections, long requests) {
        return new LoadPlan(n.address(), connections, 2, requests, null, Duration.ZERO, 0, Duration.ofSeconds(30));
    }

    private static Exchange get(NginxProcess n) {
        return n.downloads(FILE, CRC).get("http");
    }

    @ParameterizedTest
    @EnumSource(value = FileOpsWorkload.Kind.class)
    void putAndDeleteRoundTripIsReadBackAndLeavesNothing(FileOpsWorkload.Kind kind) throws Exception {
        Path nginx = nginx();
        ByteBuffer body = ByteBuffer.allocate(FILE);
        new ContentGenerator(DataDirectory.SEED).fill(body, 0);
        Files.write(dataDir.resolve(DataDirectory.generatedName(FILE)), body.array()); // the mix downloads it
        NginxProcess n = NginxProcess.start(nginx, dataDir, NginxProcess.Design.SENDFILE, 64);
        Path dir = n.dir();
        List<Long> pids = n.processes().pids();
        try {
            FileOpsRun.Outcome o = FileOpsRun.run(byCount(n, 6, 120), FileOpsRun.Wire.overHttp(), kind, FILE, CRC, "dav",
                    get(n), new HttpGetExchange(n.address().getHostString() + ":" + n.address().getPort(),
                            "/" + DataDirectory.generatedName(FILE), true, FILE, CRC), LoadEngine.WindowObserver.NONE);
            assertThat(o.skipped()).isNull();
            assertThat(o.result().errors()).isEmpty();
            assertThat(o.result().requests()).isEqualTo(120);
            // Upload: each of the 6 connections' files was there with the run's content at the end, read back over GET.
            if (kind == FileOpsWorkload.Kind.UPLOAD) {
                assertThat(o.readBack().checked()).isEqualTo(6);
            }
            assertThat(o.readBack().ok()).isTrue();
            assertThat(loadFiles()).isEmpty();
            try (Stream<Path> temp = Files.list(dir.resolve("tmp"))) {
                assertThat(temp.toList()).isEmpty(); // every body's temp file was renamed into place
            }
        } finally {
            n.close();
        }
        assertThat(pids).noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        assertThat(dir).doesNotExist();
    }

    @Test
    void aFileThatChangedAfterItsPutFailsTheReadBack() throws Exception {
        Path nginx = nginx();
        try (NginxProcess n = NginxProcess.start(nginx, dataDir, NginxProcess.Design.SENDFILE, 16);
             HttpFileClient client = new HttpFileClient(n.address())) {
            String host = n.address().getHostString() + ":" + n.address().getPort();
            HttpPutExchange put = new HttpPutExchange(host, FILE);
            assertThat(client.send(put.request("xferbench-load-a.dat"), put.newParser()).ok()).isTrue();
            assertThat(client.send(put.request("xferbench-load-b.dat"), put.newParser()).ok()).isTrue();
            byte[] changed = Files.readAllBytes(dataDir.resolve("xferbench-load-b.dat"));
            changed[FILE / 2] ^= 1;
            Files.write(dataDir.resolve("xferbench-load-b.dat"), changed);

            ReadBack r = client.readBack(host, List.of("xferbench-load-a.dat", "xferbench-load-b.dat", "xferbench-load-c.dat"), FILE, CRC);

            assertThat(r.checked()).isEqualTo(3);
            assertThat(r.errors()).containsEntry("read-back: crc mismatch", 1L).containsEntry("read-back: http 404", 1L).hasSize(2);
            assertThat(client.deleteAll(new HttpDeleteExchange(host), List.of("xferbench-load-a.dat", "xferbench-load-b.dat",
                    "xferbench-load-c.dat"))).isEqualTo(3);
            assertThat(loadFiles()).isEmpty();
        }
    }
}
