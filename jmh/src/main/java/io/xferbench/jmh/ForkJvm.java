package io.xferbench.jmh;

/**
 * The fork heap of every benchmark, as compile-time constants for {@code @Fork(jvmArgsAppend = ...)} (the other fork
 * flags are {@link io.xferbench.nativeio.JvmFlags}'). A fixed heap keeps heap resizing (mmap/madvise) out of the
 * syscall counts.
 */
public final class ForkJvm {
    public static final String XMS = "-Xms1g";
    public static final String XMX = "-Xmx1g";

    private ForkJvm() {
    }
}
