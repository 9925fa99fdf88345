package io.xferbench.core.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListeningLineTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static ChildProcess shell(String script) throws IOException {
        return ChildProcess.start("srv", List.of("sh", "-c", script));
    }

    @Test
    void theAnnouncedAddressIsReturnedAndTheLinesAfterItAreLeftToRead() throws Exception {
        try (ChildProcess child = shell("echo starting; echo 'srv: WARNING: listening on 10.0.0.2, not loopback';"
                + " echo 'xferbench-proxy listening on 127.0.0.1:4321 -> 127.0.0.1:80'; echo next")) {
            InetSocketAddress address = ListeningLine.await(child, WAIT);
            assertThat(address.getHostString()).isEqualTo("127.0.0.1");
            assertThat(address.getPort()).isEqualTo(4321);
            assertThat(child.readLine()).isEqualTo("next");
        }
    }

    @Test
    void aServersCertificateIsTheRestOfItsLineAndAbsentFromOthers() throws Exception {
        try (ChildProcess child = shell("echo 'xferbench-server listening on 127.0.0.1:4321 tls-cert=/tmp/a dir/cert.pem'")) {
            ListeningLine.Announced announced = ListeningLine.announced(child, WAIT);
            assertThat(announced.address().getPort()).isEqualTo(4321);
            assertThat(announced.tlsCertificate()).contains(java.nio.file.Path.of("/tmp/a dir/cert.pem"));
        }
        try (ChildProcess child = shell("echo 'xferbench-proxy listening on 127.0.0.1:4321 -> 127.0.0.1:80'")) {
            assertThat(ListeningLine.announced(child, WAIT).tlsCertificate()).isEmpty();
        }
    }

    @Test
    void aLineThatNeverComesIsATimeoutNamingWhatCameInstead() throws Exception {
        try (ChildProcess child = shell("echo warming up; echo slow >&2; exec sleep 30")) {
            assertThatThrownBy(() -> ListeningLine.await(child, Duration.ofMillis(500)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("srv did not say it was listening in 500 ms")
                    .hasMessageContaining("warming up")
                    .hasMessageContaining("slow");
            assertThat(child.isAlive()).as("the caller decides what becomes of it").isTrue();
        }
    }

    @Test
    void aChildThatDiesFirstIsNamedWithItsStatusOutputAndStderr() throws Exception {
        try (ChildProcess child = shell("echo 'reading config'; echo 'no such directory: /x' >&2; exit 3")) {
            assertThatThrownBy(() -> ListeningLine.await(child, WAIT))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("srv exited 3 before listening")
                    .hasMessageContaining("reading config")
                    .hasMessageContaining("no such directory: /x");
        }
    }

    @Test
    void aMalformedAnnouncementIsAnErrorNotAPort() throws Exception {
        for (String bad : List.of("srv listening on somewhere", "srv listening on 127.0.0.1:http",
                "srv listening on 127.0.0.1:0", "srv listening on 127.0.0.1:70000")) {
            try (ChildProcess child = shell("echo '" + bad + "'; exec sleep 30")) {
                assertThatThrownBy(() -> ListeningLine.await(child, WAIT))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("srv announced '" + bad + "', not HOST:PORT");
            }
        }
    }
}
