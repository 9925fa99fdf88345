package io.xferbench.client.report;

import io.netty.util.Version;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.List;
import java.util.Properties;

/**
 * Which build produced a report, when and how: stored as {@code environment.provenance} in every JSON report.
 *
 * @param schemaVersion   the JSON layout (docs/results.md); raised when a field changes meaning or goes away
 * @param xferbench       the client's version
 * @param gitCommit       the commit it was built from ({@code -modified}: with uncommitted changes), or unknown
 * @param timestamp       when the run ended, UTC, ISO-8601
 * @param commandLine     the client's arguments
 * @param jvmArguments    the client JVM's own options (heap, flags)
 * @param nettyVersion    the Netty the client runs (the server reports its methods' own)
 */
public record Provenance(int schemaVersion, String xferbench, String gitCommit, String timestamp, List<String> commandLine,
                  List<String> jvmArguments, String nettyVersion) {
    /** 2: provenance and environment.*.tuning added. Readers accept reports without them (1). */
    public static final int SCHEMA_VERSION = 2;

    public static Provenance now(List<String> args) {
        Properties build = new Properties();
        try (InputStream in = Provenance.class.getResourceAsStream("/io/xferbench/client/build.properties")) {
            if (in != null) {
                build.load(in);
            }
        } catch (IOException e) {
            // Unknown version and commit, said below.
        }
        // The shaded jar keeps one module's version file, so take any Netty module's version: they are released together.
        Version netty = Version.identify().values().stream().findFirst().orElse(null);
        return new Provenance(SCHEMA_VERSION, build.getProperty("version", "unknown"), build.getProperty("gitCommit", "unknown"),
                Instant.now().toString(), List.copyOf(args), ManagementFactory.getRuntimeMXBean().getInputArguments(),
                netty == null ? "unknown" : netty.artifactVersion());
    }

    /** One line for headers: {@code xferbench 0.1.0 (abc123) at 2026-...Z: download --size 1GiB}. */
    String summary() {
        return "xferbench " + xferbench + " (" + gitCommit + ", schema " + schemaVersion + ", Netty " + nettyVersion + ") at "
                + timestamp + ": " + String.join(" ", commandLine);
    }
}
