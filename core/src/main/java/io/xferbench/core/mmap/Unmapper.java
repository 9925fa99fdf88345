package io.xferbench.core.mmap;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.MappedByteBuffer;

/**
 * Unmaps a {@link MappedByteBuffer} now instead of when the GC gets to it, so a 4 GiB transfer does not keep
 * 4 GiB of mappings alive and aborted transfers leak none. Uses {@code sun.misc.Unsafe.invokeCleaner}
 * (module jdk.unsupported, no flags needed); if that is gone, the mapping is left to the GC.
 */
public final class Unmapper {
    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;
    private static final String FAILURE;

    static {
        Object unsafe = null;
        Method invokeCleaner = null;
        String failure = null;
        try {
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field f = type.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            unsafe = f.get(null);
            invokeCleaner = type.getMethod("invokeCleaner", java.nio.ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            unsafe = null;
            invokeCleaner = null;
            failure = e.toString();
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = invokeCleaner;
        FAILURE = failure;
    }

    private Unmapper() {
    }

    /** Null if mappings can be unmapped on demand here, else why not (then {@link #unmap} leaves them to the GC). */
    public static String unavailableReason() {
        return FAILURE == null ? null : "cannot unmap on demand (sun.misc.Unsafe.invokeCleaner): " + FAILURE;
    }

    public static void unmap(MappedByteBuffer buffer) {
        if (INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, buffer);
        } catch (ReflectiveOperationException e) {
            // Leave it to the GC; correctness does not depend on the unmap.
        }
    }
}
