package io.xferbench.nativeio.uring;

/**
 * How a ring is set up. {@code entries} is the SQ size (the kernel rounds it up to a power of two; the CQ gets twice as
 * many, so {@code entries} requests in flight never overflow it). SQPOLL has a kernel thread poll the SQ, so a
 * submission needs no {@code io_uring_enter} while the thread is awake; it sleeps after {@code sqThreadIdleMillis}
 * without work. SINGLE_ISSUER promises one submitting thread; DEFER_TASKRUN (which needs it) runs completion work only
 * when that thread enters the kernel to wait, instead of interrupting it. DEFER_TASKRUN and SQPOLL exclude each other
 * (the kernel refuses the pair).
 */
public record RingOptions(int entries, boolean sqPoll, int sqThreadIdleMillis, boolean singleIssuer, boolean deferTaskrun) {
    public RingOptions {
        if (entries < 1 || entries > 32768) {
            throw new IllegalArgumentException("ring entries " + entries + " not in [1, 32768]");
        }
        if (sqThreadIdleMillis < 0) {
            throw new IllegalArgumentException("SQ thread idle " + sqThreadIdleMillis + " ms < 0");
        }
        if (deferTaskrun && !singleIssuer) {
            throw new IllegalArgumentException("DEFER_TASKRUN needs SINGLE_ISSUER");
        }
        if (deferTaskrun && sqPoll) {
            throw new IllegalArgumentException("DEFER_TASKRUN and SQPOLL exclude each other");
        }
    }

    /** A ring with none of the options: submissions and waits through io_uring_enter. */
    public static RingOptions plain(int entries) {
        return new RingOptions(entries, false, 0, false, false);
    }

    public RingOptions withSqPoll(int idleMillis) {
        return new RingOptions(entries, true, idleMillis, singleIssuer, false);
    }

    public RingOptions withSingleIssuer(boolean deferTaskrun) {
        return new RingOptions(entries, sqPoll, sqThreadIdleMillis, true, deferTaskrun);
    }

    int setupFlags() {
        return UringAbi.SETUP_CQSIZE | (sqPoll ? UringAbi.SETUP_SQPOLL : 0)
                | (singleIssuer ? UringAbi.SETUP_SINGLE_ISSUER : 0) | (deferTaskrun ? UringAbi.SETUP_DEFER_TASKRUN : 0);
    }

    /** "SQPOLL(idle 10 ms)+SINGLE_ISSUER", "plain". */
    public String describe() {
        StringBuilder s = new StringBuilder();
        if (sqPoll) {
            s.append("SQPOLL(idle ").append(sqThreadIdleMillis).append(" ms)");
        }
        if (singleIssuer) {
            s.append(s.isEmpty() ? "" : "+").append("SINGLE_ISSUER");
        }
        if (deferTaskrun) {
            s.append("+DEFER_TASKRUN");
        }
        return s.isEmpty() ? "plain" : s.toString();
    }
}
