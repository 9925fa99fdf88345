package io.xferbench.nativeio;

import java.util.List;

/**
 * The JVM flags every JVM running this code needs, in one place: {@link Fds} reaches JDK file descriptors
 * reflectively (Netty adopts a JDK socket's fd through {@code sun.nio.ch}), and JNA and the FFM shims are native
 * access. Java code that starts a JVM takes them from here; the copies Maven and bash cannot take from here (the
 * parent POM's {@code xferbench.jvm.opens}, the jars' manifests, {@code scripts/lib/jvm-flags.sh}) are held to this
 * list by {@code JvmFlagsTest}, which also fails on a copy anywhere else.
 */
public final class JvmFlags {
    public static final String OPEN_NIO = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    public static final String OPEN_IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /**
     * Not needed by this code: JMH 1.37 uses {@code sun.misc.Unsafe}, which JDK 24+ warns about in every JVM, and JMH
     * forks inherit the host's flags. Older JDKs refuse the flag, so it is added only from 24 on.
     */
    public static final String UNSAFE_MEMORY_ACCESS = "--sun-misc-unsafe-memory-access=allow";

    private JvmFlags() {
    }

    /** The flags, in the order the copies keep them. */
    public static List<String> required() {
        return List.of(OPEN_NIO, OPEN_IO, NATIVE_ACCESS);
    }

    /** The packages opened, as a manifest's {@code Add-Opens} attribute lists them. */
    public static String manifestAddOpens() {
        return String.join(" ", required().stream().filter(f -> f.startsWith("--add-opens="))
                .map(f -> f.substring("--add-opens=".length(), f.length() - "=ALL-UNNAMED".length())).toList());
    }
}
