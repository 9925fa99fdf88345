package io.xferbench.core;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * The direct memory this JVM lets {@code ByteBuffer.allocateDirect} hold in all: past it an allocation throws
 * OutOfMemoryError. Read through the supported HotSpot diagnostic bean ({@code jdk.internal.misc.VM} is not exported).
 */
public final class JvmDirectMemory {
    private JvmDirectMemory() {
    }

    /** -XX:MaxDirectMemorySize, or when it is not set (0) the JDK's default: the maximum heap. */
    public static long max() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        long set = hotspot == null ? 0 : Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
        return set > 0 ? set : Runtime.getRuntime().maxMemory();
    }
}
