package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;

/**
 * RLIMIT_NOFILE of this process. A server holds a descriptor per client: it raises its soft limit to the hard one at
 * start (HotSpot does so too unless run with -XX:-MaxFDLimit; this makes it explicit and logged).
 */
public record OpenFilesLimit(long soft, long hard) {

    public static OpenFilesLimit current() throws NativeException {
        NativeSupport.check();
        long[] r = new long[2];
        try {
            Libc.getrlimit(Libc.RLIMIT_NOFILE, r);
        } catch (LastErrorException e) {
            throw NativeException.of("getrlimit(RLIMIT_NOFILE)", e);
        }
        return new OpenFilesLimit(r[0], r[1]);
    }

    /** Raises the soft limit to the hard limit; returns the limit in force afterwards. */
    public static OpenFilesLimit raiseSoftToHard() throws NativeException {
        OpenFilesLimit now = current();
        if (now.soft == now.hard) {
            return now;
        }
        try {
            Libc.setrlimit(Libc.RLIMIT_NOFILE, new long[] {now.hard, now.hard});
        } catch (LastErrorException e) {
            throw NativeException.of("setrlimit(RLIMIT_NOFILE)", e);
        }
        return current();
    }
}
