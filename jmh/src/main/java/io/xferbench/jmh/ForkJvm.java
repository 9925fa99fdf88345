package io.xferbench.jmh;

/**
 * JVM flags every benchmark fork needs, as compile-time constants for {@code @Fork(jvmArgsAppend = ...)}.
 * The opens are the parent POM's {@code xferbench.jvm.opens}: Netty adopts a JDK socket's fd through
 * {@code sun.nio.ch}, and JNA is native access. A fixed heap keeps heap resizing (mmap/madvise) out of the
 * syscall counts.
 */
public final class ForkJvm {
    public static final String OPEN_NIO = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    public static final String OPEN_IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    public static final String XMS = "-Xms1g";
    public static final String XMX = "-Xmx1g";

    private ForkJvm() {
    }
}
