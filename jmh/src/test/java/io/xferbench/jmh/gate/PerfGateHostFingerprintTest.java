package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a ratio depends on is read from the host, kept in the baseline, and every difference is named. */
class PerfGateHostFingerprintTest {
    private static final String XEON = "Intel(R) Xeon(R) Processor";

    @TempDir
    Path tmp;

    private Path file(String name, String text) throws Exception {
        return Files.writeString(tmp.resolve(name), text);
    }

    private Path cpuinfo(String flags) throws Exception {
        StringBuilder b = new StringBuilder();
        for (int cpu = 0; cpu < 2; cpu++) {
            b.append("processor\t: ").append(cpu).append("\nvendor_id\t: GenuineIntel\nmodel\t\t: 167\nmodel name\t: ")
                    .append(XEON).append("\nflags\t\t: ").append(flags).append("\n\n");
        }
        return file("cpuinfo", b.toString());
    }

    @Test
    void aGuestIsReadFromCpuinfoMeminfoAndDmi() throws Exception {
        HostFingerprint f = HostFingerprint.read(cpuinfo("fpu sse2 hypervisor avx2"), file("meminfo", "MemTotal:       24683772 kB\nMemFree: 1 kB\n"),
                file("product_name", "KVM\n"), 2);
        assertThat(f).isEqualTo(new HostFingerprint(XEON, 2, 32, "vm: KVM"));
    }

    @Test
    void aGuestWithoutDmiIsAVmAndBareMetalIsNone() throws Exception {
        Path meminfo = file("meminfo", "MemTotal:       16303204 kB\n");
        assertThat(HostFingerprint.read(cpuinfo("fpu hypervisor"), meminfo, tmp.resolve("absent"), 4).virtualisation())
                .isEqualTo("vm");
        // "hypervisor" as a prefix of another flag is not the flag.
        assertThat(HostFingerprint.read(cpuinfo("fpu hypervisor_x sse2"), meminfo, file("product_name", "PowerEdge R750\n"), 4))
                .isEqualTo(new HostFingerprint(XEON, 4, 16, "none"));
    }

    @Test
    void oneGenericModelNameOverTwoCpuGenerationsIsTwoHosts() throws Exception {
        Path meminfo = file("meminfo", "MemTotal:       24683772 kB\n");
        Path older = file("older", "processor\t: 0\ncpu family\t: 6\nmodel\t\t: 106\nmodel name\t: " + XEON
                + "\nstepping\t: 6\nflags\t\t: fpu avx2 hypervisor\n");
        Path newer = file("newer", "processor\t: 0\ncpu family\t: 6\nmodel\t\t: 143\nmodel name\t: " + XEON
                + "\nstepping\t: 8\nflags\t\t: hypervisor fpu avx2 avx512f\n");
        HostFingerprint a = HostFingerprint.read(older, meminfo, tmp.resolve("absent"), 2);
        HostFingerprint b = HostFingerprint.read(newer, meminfo, tmp.resolve("absent"), 2);
        assertThat(a.cpuModel()).isEqualTo(b.cpuModel());
        assertThat(a.cpuSignature()).startsWith("family 6 model 106 stepping 6, flags ");
        assertThat(b.differencesFrom(a, "here")).singleElement().asString().startsWith("CPU signature family 6 model 143");
        // The flags' order in cpuinfo is not part of the signature.
        Path reordered = file("reordered", "processor\t: 0\ncpu family\t: 6\nmodel\t\t: 106\nmodel name\t: " + XEON
                + "\nstepping\t: 6\nflags\t\t: hypervisor avx2 fpu\n");
        assertThat(HostFingerprint.read(reordered, meminfo, tmp.resolve("absent"), 2)).isEqualTo(a);
        // A baseline recorded before the signature was is judged by the rest, not refused for it.
        HostFingerprint unrecorded = new HostFingerprint(a.cpuModel(), a.cores(), a.memoryClassGiB(), a.virtualisation());
        assertThat(a.differencesFrom(unrecorded, "here")).isEmpty();
    }

    @Test
    void unreadableFilesGiveUnknownsNotErrors() {
        Path none = tmp.resolve("none");
        assertThat(HostFingerprint.read(none, none, none, 1)).isEqualTo(new HostFingerprint("unknown", 1, 0, "none"));
    }

    @Test
    void memoryIsAClassSoKernelReservationsDoNotMatter() {
        long gib = 1L << 30;
        assertThat(HostFingerprint.memoryClassGiB(16 * gib)).isEqualTo(16);
        assertThat(HostFingerprint.memoryClassGiB(16 * gib - 400L * 1024 * 1024)).isEqualTo(16);
        assertThat(HostFingerprint.memoryClassGiB(25276063744L)).isEqualTo(32);
        assertThat(HostFingerprint.memoryClassGiB(25276182528L)).isEqualTo(32);
        assertThat(HostFingerprint.memoryClassGiB(16 * gib + 1)).isEqualTo(32);
        assertThat(HostFingerprint.memoryClassGiB(-1)).isZero();
    }

    @Test
    void thisHostsIsThisJvmsAndItsCpuinfos() throws Exception {
        HostFingerprint here = HostFingerprint.current();
        assertThat(here.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(here.memoryClassGiB()).isPositive();
        String model = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("unknown");
        assertThat(here.cpuModel()).isEqualTo(model);
        assertThat(here.differencesFrom(here, "here")).isEmpty();
    }

    @Test
    void everyDifferenceIsNamed() {
        HostFingerprint base = new HostFingerprint("AMD EPYC", 2, 32, "vm");
        assertThat(new HostFingerprint(XEON, 4, 64, "none").differencesFrom(base, "here")).containsExactly(
                "CPU " + XEON + " here, AMD EPYC in the baseline", "4 cores here, 2 in the baseline",
                "memory class 64 GiB here, 32 GiB in the baseline", "virtualisation none here, vm in the baseline");
        Baseline b = new Baseline(GatePolicy.DEFAULT, null, base, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), List.of());
        Path file = Path.of("jmh/gate/baseline.json");
        assertThat(b.ratioRefusal(base, "here", file)).isEmpty();
        assertThat(b.ratioRefusal(new HostFingerprint(XEON, 2, 32, "vm"), "here", file).orElseThrow())
                .isEqualTo("not judged: baseline from another host (CPU " + XEON + " here, AMD EPYC in the baseline)");
        assertThat(new Baseline(GatePolicy.DEFAULT, null, null, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), List.of()).ratioRefusal(base, "here", file).orElseThrow())
                .startsWith("not judged: jmh/gate/baseline.json does not record the host");
    }

    @Test
    void theBaselineFileKeepsTheHostAndAnOldOneHasNone() throws Exception {
        Path results = file("results.json", "[]");
        Path baseline = tmp.resolve("baseline.json");
        HostFingerprint host = new HostFingerprint(XEON, 2, 32, "vm");
        Baseline.write(baseline, GatePolicy.DEFAULT, CountEnvironment.current(), host, new Baseline.Environment(io.xferbench.core.metrics.EnvironmentInfo.describe(null), null), results);
        assertThat(Baseline.read(baseline).ratiosDependOn()).isEqualTo(host);

        Path old = file("old.json", "{\"countsDependOn\": {\"jdkFeature\": 25, \"kernel\": \"6.18\", \"netty\": \"4.2.18.Final\"}, \"results\": []}");
        assertThat(Baseline.read(old).ratiosDependOn()).isNull();
    }

    /** The committed baseline says which host its ratios come from (tests run in the jmh module's directory). */
    @Test
    void theCommittedBaselineRecordsItsHost() throws Exception {
        Baseline committed = Baseline.read(Path.of("gate", "baseline.json"));
        assertThat(committed.ratiosDependOn()).isNotNull();
        assertThat(committed.ratiosDependOn().cpuModel()).isEqualTo(committed.environment().get("cpuModel").asText());
        assertThat(committed.ratiosDependOn().cores()).isEqualTo(committed.environment().get("cpus").asInt());
        assertThat(committed.ratiosDependOn().memoryClassGiB())
                .isEqualTo(HostFingerprint.memoryClassGiB(committed.environment().get("memoryBytes").asLong()));
    }
}
