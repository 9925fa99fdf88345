package io.xferbench.core.read;

import java.lang.reflect.Field;
import java.nio.MappedByteBuffer;

/** munmap(2) of a MappedByteBuffer now, through sun.misc.Unsafe.invokeCleaner (jdk.unsupported). */
final class Unmapper {
    private static final sun.misc.Unsafe UNSAFE;

    static {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            UNSAFE = (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Unmapper() {
    }

    /** The buffer must not be used afterwards (an access would fault). */
    static void unmap(MappedByteBuffer buffer) {
        UNSAFE.invokeCleaner(buffer);
    }
}
