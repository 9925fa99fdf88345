package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Netty loads a native transport library the first time its availability is asked ({@code Epoll.isAvailable()},
 * {@code IoUring.isAvailable()}, ...), and reads its extraction directory then. Every class of the suite that asks
 * must point it at the process's own directory first ({@code NettyNativeWorkdir.claim()}), or a new gate would put the
 * libraries back in /tmp, where a SIGKILL leaves them for good.
 */
class NettyNativeGatesTest {
    private static final Pattern GATE = Pattern.compile("\\b(Epoll|IoUring)\\s*\\.\\s*(isAvailable|ensureAvailability|unavailabilityCause)\\s*\\(");

    @Test
    void everyClassAskingNettyForANativeTransportClaimsTheWorkdirFirst() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();   // surefire runs in the module's directory
        List<Path> gates;
        try (Stream<Path> files = Files.walk(root)) {
            gates = files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.endsWith("NettyNativeWorkdir.java"))   // the claim itself
                    .filter(p -> GATE.matcher(read(p)).find()).toList();
        }
        assertThat(gates).as("classes asking Netty whether a native transport is available").hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(p -> assertThat(read(p)).as(root.relativize(p).toString()).contains("NettyNativeWorkdir.claim();"));
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
