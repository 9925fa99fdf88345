package io.xferbench.jmh.gate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * What a speed ratio to the ruler depends on besides the code and the counts' environment, recorded in the baseline
 * ({@code ratiosDependOn}): two hosts of one kind (same JDK, kernel, Netty) still differ in how much faster sendfile or
 * io_uring is than a stream copy when their CPUs, core counts, memory or virtualisation differ. Ratios are judged only
 * against a baseline with the same fingerprint; counts never look at it.
 *
 * @param cpuModel       /proc/cpuinfo's "model name" ("unknown" when unreadable)
 * @param cpuSignature   its "cpu family", "model" and "stepping" and a CRC32 of its sorted flags ("unknown" without
 *                       a family): a guest's model name is often generic ("Intel(R) Xeon(R) Processor"), and two
 *                       hosts behind one name can differ in generation and in what the guest is allowed to use
 * @param cores          the processors this JVM may use (what the benchmarks and their forks get)
 * @param memoryClassGiB MemTotal rounded up to a power of two GiB (0 when unreadable): MemTotal is a little under
 *                       the installed size and moves with kernel reservations, its class does not
 * @param virtualisation "none", or "vm" (the cpuinfo {@code hypervisor} flag) with the DMI product name when there is
 *                       one ("vm: KVM", "vm: c5.large"), the closest a guest gets to naming its host kind
 */
public record HostFingerprint(String cpuModel, String cpuSignature, int cores, int memoryClassGiB, String virtualisation) {

    /** A fingerprint whose CPU signature is unknown (a baseline recorded before it was). */
    public HostFingerprint(String cpuModel, int cores, int memoryClassGiB, String virtualisation) {
        this(cpuModel, UNKNOWN, cores, memoryClassGiB, virtualisation);
    }

    static final String UNKNOWN = "unknown";

    /** This machine's. */
    public static HostFingerprint current() {
        return read(Path.of("/proc/cpuinfo"), Path.of("/proc/meminfo"), Path.of("/sys/class/dmi/id/product_name"),
                Runtime.getRuntime().availableProcessors());
    }

    /** The fingerprint from these files (a test passes its own). */
    static HostFingerprint read(Path cpuinfo, Path meminfo, Path dmiProductName, int cores) {
        List<String> cpu = lines(cpuinfo);
        String model = field(cpu, "model name").orElse(UNKNOWN);
        List<String> flags = field(cpu, "flags").map(f -> List.of(f.split("\\s+"))).orElse(List.of());
        boolean hypervisor = flags.contains("hypervisor");
        String virtualisation = "none";
        if (hypervisor) {
            String product = lines(dmiProductName).stream().map(String::strip).filter(s -> !s.isEmpty()).findFirst().orElse("");
            virtualisation = product.isEmpty() ? "vm" : "vm: " + product;
        }
        long memKiB = field(lines(meminfo), "MemTotal").map(v -> v.replaceAll("\\D", "")).filter(v -> !v.isEmpty())
                .map(Long::parseLong).orElse(-1L);
        return new HostFingerprint(model, signature(cpu, flags), cores, memoryClassGiB(memKiB * 1024), virtualisation);
    }

    private static String signature(List<String> cpu, List<String> flags) {
        Optional<String> family = field(cpu, "cpu family");
        if (family.isEmpty()) {
            return UNKNOWN;
        }
        CRC32 crc = new CRC32();
        crc.update(String.join(" ", flags.stream().sorted().toList()).getBytes(StandardCharsets.US_ASCII));
        return String.format(Locale.ROOT, "family %s model %s stepping %s, flags %08x", family.get(),
                field(cpu, "model").orElse("?"), field(cpu, "stepping").orElse("?"), crc.getValue());
    }

    /** The smallest power of two GiB at least {@code bytes}: 23.5 GiB → 32; 0 for an unknown size. */
    static int memoryClassGiB(long bytes) {
        if (bytes <= 0) {
            return 0;
        }
        int gib = 1;
        while ((long) gib << 30 < bytes) {
            gib <<= 1;
        }
        return gib;
    }

    /** Where {@code this} (measured {@code where}: "here", "in FILE") differs from the baseline's, one phrase each. */
    public List<String> differencesFrom(HostFingerprint baseline, String where) {
        List<String> out = new ArrayList<>();
        if (!Objects.equals(cpuModel, baseline.cpuModel)) {
            out.add("CPU " + cpuModel + " " + where + ", " + baseline.cpuModel + " in the baseline");
        }
        // A signature not recorded (a baseline older than it, a cpuinfo without a family) is not compared: the model
        // name still is.
        if (known(cpuSignature) && known(baseline.cpuSignature) && !cpuSignature.equals(baseline.cpuSignature)) {
            out.add("CPU signature " + cpuSignature + " " + where + ", " + baseline.cpuSignature + " in the baseline");
        }
        if (cores != baseline.cores) {
            out.add(cores + " cores " + where + ", " + baseline.cores + " in the baseline");
        }
        if (memoryClassGiB != baseline.memoryClassGiB) {
            out.add("memory class " + memoryClassGiB + " GiB " + where + ", " + baseline.memoryClassGiB + " GiB in the baseline");
        }
        if (!Objects.equals(virtualisation, baseline.virtualisation)) {
            out.add("virtualisation " + virtualisation + " " + where + ", " + baseline.virtualisation + " in the baseline");
        }
        return out;
    }

    private static boolean known(String signature) {
        return signature != null && !signature.equals(UNKNOWN);
    }

    private static Optional<String> field(List<String> lines, String name) {
        return lines.stream()
                .filter(l -> l.startsWith(name) && l.indexOf(':') > 0 && l.substring(0, l.indexOf(':')).strip().equals(name))
                .map(l -> l.substring(l.indexOf(':') + 1).strip())
                .findFirst();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
