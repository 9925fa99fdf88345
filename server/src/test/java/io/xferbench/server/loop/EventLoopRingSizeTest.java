package io.xferbench.server.loop;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.ServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --io-uring-ring-size} reaches the event-loop rings: the kernel's own account of each ring the server has
 * open ({@code SqMask} in /proc/PID/fdinfo, entries - 1) says how big its submission queue is.
 */
@Timeout(60)
class EventLoopRingSizeTest {
    @TempDir
    Path dataDir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"netty-io-uring", "netty-io-uring-inline"})
    void theServersRingsHaveTheEntriesAsked(String model) throws Exception {
        MethodAssumptions.assumeAvailable(model, EventLoopTransport.IO_URING.availability());
        try (ServerProcess server = ServerProcess.start(dataDir, "--io-model", model, "--io-uring-ring-size", "32")) {
            assertThat(submissionMasks(server.process.pid())).isNotEmpty().allMatch(mask -> mask == 31);
        }
        try (ServerProcess server = ServerProcess.start(dataDir, "--io-model", model)) {
            assertThat(submissionMasks(server.process.pid())).isNotEmpty().allMatch(mask -> mask == EventLoopRingSize.DEFAULT - 1);
        }
    }

    /** The SqMask of every io_uring descriptor the process holds. */
    private static List<Integer> submissionMasks(long pid) throws IOException {
        List<Integer> masks = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fdinfo"))) {
            for (Path fd : fds.toList()) {
                String info;
                try {
                    info = Files.readString(fd);
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                info.lines().filter(l -> l.startsWith("SqMask:"))
                        .forEach(l -> masks.add(Integer.decode(l.substring("SqMask:".length()).strip())));
            }
        }
        return masks;
    }
}
