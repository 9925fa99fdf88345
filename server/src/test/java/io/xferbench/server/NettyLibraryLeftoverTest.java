package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where a server process's Netty native library goes: Netty is told to keep the extracted {@code .so}
 * ({@code deleteLibAfterLoading=false}), so the test sees where a SIGKILL between extraction and unlink would have
 * left it. It must be in the process's own {@code xferbench-netty-<pid>.<start>} directory, that directory gone after
 * a SIGTERM, and after a SIGKILL removed by the next start.
 */
@Timeout(180)
class NettyLibraryLeftoverTest {

    @TempDir
    Path tmp;

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @ValueSource(strings = {"netty-epoll", "netty-io-uring"})
    void theLibraryLivesInTheServersOwnDirectoryAndLeavesWithIt(String model) throws Exception {
        Availability a = (model.equals("netty-epoll") ? NettyTransport.EPOLL : NettyTransport.IO_URING).availability();
        MethodAssumptions.assumeAvailable(model, a);
        List<String> jvmArgs = List.of("-Djava.io.tmpdir=" + tmp, "-Dio.netty.native.deleteLibAfterLoading=false");

        try (ServerProcess s = ServerProcess.start(List.of(), jvmArgs, dataDir, "--io-model", model)) {
            Path own = tmp.resolve("xferbench-netty-" + owner(s.process));
            assertThat(libraries()).as("Netty's libraries, kept").isNotEmpty()
                    .allSatisfy(lib -> assertThat(lib.getParent()).isEqualTo(own));
            s.process.destroy();   // SIGTERM: the shutdown hook removes the directory
            assertThat(s.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(entries()).as("what a SIGTERMed server left in tmp").isEmpty();
        }

        Path killedOwn;
        try (ServerProcess s = ServerProcess.start(List.of(), jvmArgs, dataDir, "--io-model", model)) {
            killedOwn = tmp.resolve("xferbench-netty-" + owner(s.process));
            s.process.destroyForcibly().waitFor();
        }
        assertThat(libraries()).as("a SIGKILLed server's library stays in its own directory").isNotEmpty()
                .allSatisfy(lib -> assertThat(lib.getParent()).isEqualTo(killedOwn));

        try (ServerProcess s = ServerProcess.start(List.of(), jvmArgs, dataDir, "--io-model", model)) {
            assertThat(killedOwn).as("removed by the next start").doesNotExist();
            assertThat(entries()).containsExactly(tmp.resolve("xferbench-netty-" + owner(s.process)));
        }
    }

    @Test
    void aServerThatLoadedItsLibrariesLeavesNothingEvenWhenKilled() throws Exception {
        Availability epoll = NettyTransport.EPOLL.availability();
        Availability uring = NettyTransport.IO_URING.availability();
        MethodAssumptions.assumeAvailable("netty-epoll", epoll);
        MethodAssumptions.assumeAvailable("netty-io-uring", uring);
        try (ServerProcess s = ServerProcess.start(List.of(), List.of("-Djava.io.tmpdir=" + tmp), dataDir,
                "--io-model", "netty-epoll")) {
            try (XferConnection c = XferConnection.open("127.0.0.1", s.port, "")) {
                // Both transports still load and run after their directory went (Netty makes it only once).
                for (String method : List.of("epoll-sendfile", "io-uring", "io-uring-read-send")) {
                    assertThat(c.download(Request.download(method, 1 << 20, Flags.VERIFY_CRC32C, 0)).verified()).as(method).isTrue();
                }
            }
            assertThat(entries()).as("tmp once the libraries are loaded").isEmpty();
            s.process.destroyForcibly().waitFor();
            assertThat(entries()).as("tmp after a SIGKILL past the loads").isEmpty();
        }
    }

    @Test
    void aPlatformServerLoadsNettyOnlyWhenAMethodNeedsIt() throws Exception {
        Availability epoll = NettyTransport.EPOLL.availability();
        MethodAssumptions.assumeAvailable("netty-epoll", epoll);
        try (ServerProcess s = ServerProcess.start(List.of(), List.of("-Djava.io.tmpdir=" + tmp), dataDir)) {
            try (XferConnection c = XferConnection.open("127.0.0.1", s.port, "")) {
                assertThat(c.download(Request.download("transfer-to", 1 << 20, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
                assertThat(nettyLibrariesMappedBy(s.process)).as("after a JDK-only download").isEmpty();
                assertThat(c.download(Request.download("epoll-sendfile", 1 << 20, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
                assertThat(nettyLibrariesMappedBy(s.process)).as("after a Netty download").hasSize(2);
            }
            assertThat(entries()).as("tmp once the libraries are loaded").isEmpty();
        }
    }

    /** The Netty native libraries the process has mapped (unlinked files, still mapped under their old names). */
    private static List<String> nettyLibrariesMappedBy(Process p) throws IOException {
        try (Stream<String> maps = Files.lines(Path.of("/proc", Long.toString(p.pid()), "maps"))) {
            return maps.filter(l -> l.contains("libnetty_transport_native_")).map(l -> l.substring(l.indexOf('/')))
                    .map(l -> l.replace(" (deleted)", "")).distinct().toList();
        }
    }

    private static String owner(Process p) {
        return p.pid() + "." + p.toHandle().info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }

    private List<Path> libraries() throws IOException {
        try (Stream<Path> all = Files.walk(tmp)) {
            return all.filter(p -> p.getFileName().toString().startsWith("libnetty")).toList();
        }
    }

    /** What is in tmp, but hsperfdata (the JVM's own, removed by it at exit). */
    private List<Path> entries() throws IOException {
        try (Stream<Path> top = Files.list(tmp)) {
            return top.filter(p -> !p.getFileName().toString().startsWith("hsperfdata_")).toList();
        }
    }
}
