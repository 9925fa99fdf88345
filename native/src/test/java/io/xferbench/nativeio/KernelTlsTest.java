package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.nativeio.testing.NativeAssumptions;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link KernelTls}: the kernel answers, as its own list of upper layer protocols says; a wrong use is typed. */
class KernelTlsTest {
    @Test
    void theKernelAnswersAsItsListOfUpperLayerProtocolsSays() throws Exception {
        NativeAssumptions.assumeAvailable("kernel TLS probe", NativeSupport.available(), NativeSupport.unavailableReason());
        KernelTls.Support support = KernelTlsProbe.here();
        // Read after the probe: as root the probe may have loaded the module.
        boolean listed = Files.readString(KernelTlsProbe.AVAILABLE_ULPS).strip().matches("(.*\\s)?tls(\\s.*)?");
        assertThat(support.available()).as(support.describe()).isEqualTo(listed);
        if (listed) {
            assertThat(support.describe()).isEqualTo("available");
        } else {
            assertThat(support.errno()).isEqualTo(Errno.ENOENT);
            assertThat(support.describe()).isEqualTo("unavailable: TCP_ULP tls: ENOENT, module tls not loaded (the kernel's ULPs: "
                    + KernelTlsProbe.availableUlps() + ")");
        }
        assertThat(KernelTlsProbe.here()).as("kept").isSameAs(support);
    }

    @Test
    void aFileIsNotASocket(@TempDir Path dir) throws Exception {
        NativeAssumptions.assumeAvailable("kernel TLS probe", NativeSupport.available(), NativeSupport.unavailableReason());
        try (FileChannel file = FileChannel.open(dir.resolve("f"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            int fd = Fds.of(file);
            assertThatThrownBy(() -> KernelTls.probe(fd))
                    .isInstanceOfSatisfying(KernelTls.NotATcpConnectionException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOTSOCK))
                    .hasMessage("setsockopt(" + fd + ", SOL_TCP, TCP_ULP, \"tls\"): ENOTSOCK (Socket operation on non-socket): fd " + fd
                            + " is not a connected TCP socket");
        }
    }

    @Test
    void eachRefusalSaysWhatItMeans() {
        assertThat(KernelTls.reason(Errno.ENOENT)).isEqualTo("TCP_ULP tls: ENOENT, module tls not loaded");
        assertThat(KernelTls.reason(Errno.ENOPROTOOPT)).startsWith("TCP_ULP tls: ENOPROTOOPT, the kernel has no TCP upper layer protocols");
        assertThat(KernelTls.reason(Errno.EPERM)).isEqualTo("TCP_ULP tls: EPERM (" + Errno.describe(Errno.EPERM) + ")");
    }
}
