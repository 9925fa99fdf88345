package io.xferbench.jmh;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Unmaps a {@link MappedByteBuffer} now (munmap(2) inside the op that mapped it) instead of whenever the GC
 * gets to it, through {@code sun.misc.Unsafe.invokeCleaner} (module jdk.unsupported, no flags needed). The
 * same approach as core's {@code Unmapper}, which is package-private there.
 */
final class Unmap {
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
            invokeCleaner = type.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            failure = e.toString();
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = invokeCleaner;
        FAILURE = failure;
    }

    private Unmap() {
    }

    /** Null if mappings can be unmapped on demand here, else why not. */
    static String unavailableReason() {
        return FAILURE == null ? null : "cannot unmap on demand (sun.misc.Unsafe.invokeCleaner): " + FAILURE;
    }

    static void unmap(MappedByteBuffer buffer) {
        try {
            INVOKE_CLEANER.invoke(UNSAFE, buffer);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("invokeCleaner failed", e);
        }
    }
}
