package io.xferbench.core.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Direction;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.TransferMethod;
import io.xferbench.core.metrics.PerfSyscallCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The registries are the one list of methods: every descriptor complete, and the documents' tables agree with them. */
class MethodRegistryTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern ROW_ID = Pattern.compile("^\\| `([a-z0-9-]+)` \\|");

    @Test
    void everyDescriptorSaysWhichWayItMovesAndIdsAreUnique() {
        assertThat(DownloadMethods.all()).extracting(TransferMethod::direction).containsOnly(Direction.DOWNLOAD);
        assertThat(UploadMethods.all()).extracting(TransferMethod::direction).containsOnly(Direction.UPLOAD);
        assertThat(RelayMethods.all()).extracting(TransferMethod::direction).containsOnly(Direction.RELAY);
        assertThat(DownloadMethods.ids()).doesNotHaveDuplicates();
        assertThat(UploadMethods.ids()).doesNotHaveDuplicates();
        assertThat(RelayMethods.ids()).doesNotHaveDuplicates();
        for (TransferMethod m : all()) {
            assertThat(m.summary()).as(m.id()).isNotBlank();
            assertThat(m.traits()).as(m.id()).isNotNull();
            if (m.traits().jmhExclusion() != null) {
                assertThat(m.traits().jmhExclusion()).as(m.id()).isNotBlank();
            }
        }
    }

    /**
     * Reports always show a method's defining syscalls, so each must be one perf counts by name; and a method's
     * io_uring SQE counts are shown only when it declares io_uring_enter, so every io_uring method (its summary
     * says so) must, and no other.
     */
    @Test
    void everyMethodDeclaresTheCountedSyscallsThatDefineIt() {
        for (TransferMethod m : all()) {
            assertThat(m.traits().definingSyscalls()).as(m.id()).isNotEmpty();
            assertThat(PerfSyscallCounter.DEFAULT_SYSCALLS).as(m.id()).containsAll(m.traits().definingSyscalls());
            boolean saysIoUring = m.summary().contains("io_uring") || m.summary().contains("IORING_OP");
            assertThat(m.traits().usesIoUring()).as(m.id() + ": " + m.summary()).isEqualTo(saysIoUring);
        }
        assertThat(DownloadMethods.byId("transfer-to").orElseThrow().traits().definingSyscalls()).containsExactly("sendfile64");
        assertThat(DownloadMethods.byId("direct-io").orElseThrow().traits().usesIoUring()).isFalse();
    }

    /**
     * A TLS method's client must open the session after the head, so the flag decides how a download is read: it must
     * be set on exactly the methods that say TLS, and a TLS body cannot come from a C twin sending in clear.
     */
    @Test
    void exactlyTheTlsMethodsSayTlsAndNoneHasAPlaintextTwin() {
        for (TransferMethod m : all()) {
            assertThat(m.traits().tls()).as(m.id() + ": " + m.summary()).isEqualTo(m.summary().contains("TLS"));
            if (m.traits().tls()) {
                assertThat(m.traits().twinMode()).as(m.id()).isNull();
                assertThat(m.traits().inJmh()).as(m.id() + ": FileToSocketBenchmark's drain reads in clear").isFalse();
            }
        }
        assertThat(DownloadMethods.byId("tls-jdk").orElseThrow().traits().tls()).isTrue();
        assertThat(DownloadMethods.byId("channel-direct").orElseThrow().traits().tls()).isFalse();
    }

    /** A download without a C twin must say why, so scripts/twin never meets a method it cannot pair. */
    @Test
    void everyDownloadHasACTwinOrSaysWhyNot() {
        for (SenderMethod m : DownloadMethods.all()) {
            assertThat(m.traits().twinMode() != null || m.traits().noTwinReason() != null).as(m.id()).isTrue();
        }
    }

    /** Likewise for uploads (scripts/twin --direction upload), and a receiving twin mode is an io_uring one's. */
    @Test
    void everyUploadHasACTwinOrSaysWhyNot() {
        for (ReceiverMethod m : UploadMethods.all()) {
            assertThat(m.traits().twinMode() != null || m.traits().noTwinReason() != null).as(m.id()).isTrue();
        }
        assertThat(UploadMethods.byId("io-uring-recv-write").orElseThrow().traits().twinMode()).isEqualTo("uring-recv-write");
    }

    @Test
    void theReadmeListsEveryDownloadMethodInRegistryOrder() throws Exception {
        assertThat(tableIds(ROOT.resolve("README.md"), "## Methods (download")).isEqualTo(DownloadMethods.ids());
    }

    @Test
    void theUploadAndProxyGuideListsEveryReceiverAndRelay() throws Exception {
        Path guide = ROOT.resolve("docs/upload-proxy.md");
        assertThat(tableIds(guide, "## Receivers")).isEqualTo(UploadMethods.ids());
        assertThat(tableIds(guide, "## Relays")).isEqualTo(RelayMethods.ids());
    }

    private static List<TransferMethod> all() {
        List<TransferMethod> all = new ArrayList<>(DownloadMethods.all());
        all.addAll(UploadMethods.all());
        all.addAll(RelayMethods.all());
        return all;
    }

    /** The ids in the first column of the first table under the heading that starts with {@code heading}. */
    static List<String> tableIds(Path file, String heading) throws Exception {
        List<String> ids = new ArrayList<>();
        boolean inSection = false;
        boolean inTable = false;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("#")) {
                if (inTable) {
                    break;
                }
                inSection = line.startsWith(heading);
                continue;
            }
            if (!inSection) {
                continue;
            }
            Matcher m = ROW_ID.matcher(line);
            if (m.find()) {
                inTable = true;
                ids.add(m.group(1));
            } else if (inTable && !line.startsWith("|")) {
                break;
            }
        }
        return ids;
    }
}
