package io.xferbench.jmh.gate;

import io.netty.util.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What syscall counts per op depend on besides the code under test, recorded in the baseline and compared before a
 * run: the JDK (a new release may add or merge a syscall per op, e.g. in NIO's transferTo), the kernel (which
 * syscalls a path makes, how io_uring completes), and Netty (the event-loop methods' own calls). Patch levels are left
 * out: they fix bugs without changing syscall paths, and a gate refusing every security update would be switched off.
 *
 * @param jdkFeature the JDK's feature release (21, 25)
 * @param kernel     the kernel's major.minor (6.8)
 * @param netty      Netty's version, or "unknown" when its version file is not on the class path
 */
public record CountEnvironment(int jdkFeature, String kernel, String netty) {
    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    /** This JVM's, which is also what the JMH forks run on (the gate does not pick another JVM for them). */
    public static CountEnvironment current() {
        return new CountEnvironment(Runtime.version().feature(), majorMinor(System.getProperty("os.version")), nettyVersion());
    }

    /** "6.18.44-fc-v782" → "6.18"; a version without a major.minor is kept whole. */
    static String majorMinor(String osVersion) {
        Matcher m = MAJOR_MINOR.matcher(osVersion);
        return m.find() ? m.group(1) + "." + m.group(2) : osVersion;
    }

    private static String nettyVersion() {
        // All Netty artifacts of one build carry the same version; the shaded jar keeps one artifact's file.
        return Version.identify().values().stream().map(Version::artifactVersion).findFirst().orElse("unknown");
    }

    /** Where {@code this} (the run's environment) differs from the baseline's, one phrase each; empty when none does. */
    public List<String> differencesFrom(CountEnvironment baseline) {
        return differencesFrom(baseline, "here");
    }

    /** The same for results measured {@code where} ("here", "in FILE"). */
    public List<String> differencesFrom(CountEnvironment baseline, String where) {
        List<String> out = new ArrayList<>();
        if (jdkFeature != baseline.jdkFeature) {
            out.add("JDK " + jdkFeature + " " + where + ", JDK " + baseline.jdkFeature + " in the baseline");
        }
        if (!kernel.equals(baseline.kernel)) {
            out.add("kernel " + kernel + " " + where + ", " + baseline.kernel + " in the baseline");
        }
        if (!netty.equals(baseline.netty)) {
            out.add("Netty " + netty + " " + where + ", " + baseline.netty + " in the baseline");
        }
        return out;
    }
}
