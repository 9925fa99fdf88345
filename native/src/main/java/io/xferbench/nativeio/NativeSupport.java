package io.xferbench.nativeio;

/** Whether the shim can run here, and why not. */
public final class NativeSupport {
    private NativeSupport() {
    }

    public static boolean available() {
        return unavailableReason() == null;
    }

    /**
     * Computed once: every native call checks it, and three property lookups and a lower-cased copy of os.name per
     * call showed in an upload's profile.
     */
    private static final String UNAVAILABLE_REASON = reason();

    /** Null when available, else a one-line reason fit for a "skipped:" column. */
    public static String unavailableReason() {
        return UNAVAILABLE_REASON;
    }

    private static String reason() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return "the native shim supports Linux only (os.name=" + System.getProperty("os.name") + ")";
        }
        if (!"amd64".equals(System.getProperty("os.arch")) && !"x86_64".equals(System.getProperty("os.arch"))) {
            return "the native shim's struct layouts are for x86_64 (os.arch=" + System.getProperty("os.arch") + ")";
        }
        return Libc.unavailableReason();
    }

    static void check() throws NativeException {
        String reason = unavailableReason();
        if (reason != null) {
            throw new NativeException("native shim", Errno.ENOSYS, reason);
        }
    }
}
