package io.xferbench.server.thread;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.server.MalformedRequestStormTest;
import io.xferbench.server.ServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code virtual} model's server JVM runs the JDK's socket pollers on platform threads (docs/robustness.md, "The
 * {@code virtual} model at 1,000 connections"), says so in INFO, and leaves an explicit {@code -Djdk.pollerMode} alone.
 * Each server is a JVM of its own: the JDK picks the pollers' mode once per JVM.
 */
class PlatformPollersTest {
    @TempDir
    Path dataDir;

    @Test
    void virtualModelServesWithPlatformPollers() throws Exception {
        try (ServerProcess server = ServerProcess.start(dataDir, "--io-model", "virtual")) {
            JsonNode environment = serveOneRequestAndAskInfo(server, true);
            assertThat(environment.get("virtualThreadPollers").asText()).isEqualTo("platform threads (jdk.pollerMode=1)");
            assertThat(threadNames(server.process.pid())).contains("Read-Poller").doesNotContain("MasterPoller");
        }
    }

    /**
     * The JDK makes its pollers once, at a virtual thread's first socket wait, and never retries: made while the server
     * was out of descriptors, they failed for good, and so did every later socket wait. The models start them before
     * they accept, so they run before any connection.
     */
    @ParameterizedTest
    @ValueSource(strings = {"virtual", "virtual+pool:2"})
    void thePollersRunBeforeTheFirstConnection(String model) throws Exception {
        try (ServerProcess server = ServerProcess.start(dataDir, "--io-model", model)) {
            assertThat(threadNames(server.process.pid())).containsAnyOf("Read-Poller", "MasterPoller");
        }
    }

    @Test
    void anExplicitPollerModeIsKeptAndReported() throws Exception {
        try (ServerProcess server = ServerProcess.start(List.of(), List.of("-Djdk.pollerMode=2"), dataDir, "--io-model", "virtual")) {
            JsonNode environment = serveOneRequestAndAskInfo(server, true);
            assertThat(environment.get("virtualThreadPollers").asText()).isEqualTo("virtual threads (jdk.pollerMode=2)");
            assertThat(threadNames(server.process.pid())).contains("MasterPoller").doesNotContain("Read-Poller");
        }
    }

    @Test
    void otherModelsDoNotReportPollers() throws Exception {
        try (ServerProcess server = ServerProcess.start(dataDir, "--io-model", "platform")) {
            assertThat(serveOneRequestAndAskInfo(server, false).has("virtualThreadPollers")).isFalse();
        }
    }

    /**
     * The JDK starts its pollers when a virtual thread first waits for a socket: the server's connection thread waits
     * for this connection's first request, which is sent once they are there (or, with no virtual thread in the
     * server, at once).
     */
    private static JsonNode serveOneRequestAndAskInfo(ServerProcess server, boolean awaitPollers) throws Exception {
        long pid = server.process.pid();
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port, "")) {
            if (awaitPollers) {
                MalformedRequestStormTest.waitUntil(() -> {
                    List<String> names = threadNames(pid);
                    return names.contains("Read-Poller") || names.contains("MasterPoller");
                }, "the JDK's pollers started");
            }
            assertThat(c.download(Request.download("stream", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            return new ObjectMapper().readTree(c.control(Op.INFO)).get("environment");
        }
    }

    private static List<String> threadNames(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.map(t -> {
                try {
                    return Files.readString(t.resolve("comm")).strip();
                } catch (IOException e) {
                    return ""; // the thread exited between the listing and the read
                }
            }).toList();
        } catch (IOException e) {
            throw new AssertionError("the server process is gone: " + e);
        }
    }
}
