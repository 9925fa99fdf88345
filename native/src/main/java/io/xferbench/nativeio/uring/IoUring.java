package io.xferbench.nativeio.uring;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.NativeException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A ring of the suite's own, set up with io_uring_setup and driven through its shared memory: Netty's public API
 * has no SQPOLL, registered buffers or registered files, which are what a tuned ring (fio's {@code --sqthread_poll
 * --fixedbufs --registerfiles}) adds over a plain one. The SQ and CQ rings are one mapping (IORING_FEAT_SINGLE_MMAP,
 * Linux 5.4), the SQEs another. One thread uses a ring. Closing unregisters what was registered, unmaps both regions
 * and closes the ring's descriptor (which stops an SQ thread), each step tried even when one before it failed.
 */
public final class IoUring implements AutoCloseable {
    /** Spins over an empty CQ before an SQPOLL ring blocks in io_uring_enter: a guard against waiting forever. */
    private static final int SQPOLL_SPINS = 1 << 22;

    private final int fd;
    private final RingOptions options;
    private final int features;
    private final int setupFlags;
    private final MappedRegion rings;
    private final MappedRegion sqeArray;
    private final SubmissionQueue sq;
    private final CompletionQueue cq;
    private RegisteredBuffers buffers;
    private RegisteredFiles files;
    private int entered;
    /** The SQ tail published when the SQ thread was last woken; none before the first wakeup. */
    private long wokenAtTail = Long.MIN_VALUE;
    private long enters;
    private long wakeups;
    private boolean closed;

    private IoUring(int fd, RingOptions options, int features, int setupFlags, MappedRegion rings,
            MappedRegion sqeArray, SubmissionQueue sq, CompletionQueue cq) {
        this.fd = fd;
        this.options = options;
        this.features = features;
        this.setupFlags = setupFlags;
        this.rings = rings;
        this.sqeArray = sqeArray;
        this.sq = sq;
        this.cq = cq;
        this.entered = sq.tail();
    }

    /**
     * Sets up a ring.
     *
     * @throws NativeException with the reason in words when the kernel, a sysctl or a sandbox refuses (see
     *                         {@link UringProbe}), or the kernel lacks IORING_FEAT_SINGLE_MMAP (before 5.4)
     */
    public static IoUring open(RingOptions options) throws NativeException {
        String unavailable = UringCalls.unavailableReason();
        if (unavailable != null) {
            throw new NativeException("io_uring_setup", Errno.ENOSYS, unavailable);
        }
        try (Memory params = new Memory(UringAbi.PARAMS_BYTES)) {
            params.clear();
            params.setInt(UringAbi.PARAMS_CQ_ENTRIES, 2 * options.entries());
            params.setInt(UringAbi.PARAMS_FLAGS, options.setupFlags());
            params.setInt(UringAbi.PARAMS_SQ_THREAD_IDLE, options.sqThreadIdleMillis());
            int fd;
            try {
                fd = (int) UringCalls.setup(options.entries(), Pointer.nativeValue(params));
            } catch (LastErrorException e) {
                throw new NativeException("io_uring_setup(" + options.entries() + ", " + options.describe() + ")",
                        e.getErrorCode(), SetupRefusal.reason(options, e.getErrorCode()));
            }
            try {
                return map(fd, options, params.getByteBuffer(0, UringAbi.PARAMS_BYTES).order(ByteOrder.nativeOrder()));
            } catch (NativeException | RuntimeException e) {
                closeQuietly(fd);
                throw e;
            }
        }
    }

    private static IoUring map(int fd, RingOptions options, ByteBuffer params) throws NativeException {
        int features = params.getInt(UringAbi.PARAMS_FEATURES);
        if ((features & UringAbi.FEAT_SINGLE_MMAP) == 0) {
            throw new NativeException("io_uring_setup", Errno.EOPNOTSUPP,
                    "the kernel lacks IORING_FEAT_SINGLE_MMAP (Linux 5.4): its SQ and CQ rings need two mappings");
        }
        int sqEntries = params.getInt(UringAbi.PARAMS_SQ_ENTRIES);
        int cqEntries = params.getInt(UringAbi.PARAMS_CQ_ENTRIES);
        long sqRingBytes = params.getInt(UringAbi.SQ_OFF + UringAbi.SQ_OFF_ARRAY) + 4L * sqEntries;
        long cqRingBytes = params.getInt(UringAbi.CQ_OFF + UringAbi.CQ_OFF_CQES) + (long) UringAbi.CQE_BYTES * cqEntries;
        MappedRegion rings = MappedRegion.map(fd, Math.max(sqRingBytes, cqRingBytes), UringAbi.OFF_SQ_RING, "SQ/CQ rings");
        MappedRegion sqes = null;
        try {
            sqes = MappedRegion.map(fd, (long) UringAbi.SQE_BYTES * sqEntries, UringAbi.OFF_SQES, "SQEs");
            SubmissionQueue sq = new SubmissionQueue(rings.bytes(), sqes.bytes(), params);
            CompletionQueue cq = new CompletionQueue(rings.bytes(), params);
            return new IoUring(fd, options, features, params.getInt(UringAbi.PARAMS_FLAGS), rings, sqes, sq, cq);
        } catch (NativeException | RuntimeException e) {
            for (MappedRegion region : new MappedRegion[] {sqes, rings}) {
                try {
                    if (region != null) {
                        region.close();
                    }
                } catch (NativeException ignored) {
                    // The first failure is the one worth reporting.
                }
            }
            throw e;
        }
    }

    public int fd() {
        return fd;
    }

    public RingOptions options() {
        return options;
    }

    /** The IORING_FEAT_* bits the kernel reported at setup. */
    public int features() {
        return features;
    }

    /**
     * The IORING_SETUP_* flags of the ring as the kernel wrote them back into io_uring_params at setup, by name
     * ({@code CQSIZE}, {@code SQPOLL}, {@code SINGLE_ISSUER}, {@code DEFER_TASKRUN}; any other bit as hex): what a
     * report can show of how the ring was really set up.
     */
    public List<String> setupFlags() {
        return UringAbi.setupFlagNames(setupFlags);
    }

    /** Whether an SQPOLL ring may read files by their plain descriptor (IORING_FEAT_SQPOLL_NONFIXED, Linux 5.11). */
    public boolean sqPollTakesPlainFiles() {
        return (features & UringAbi.FEAT_SQPOLL_NONFIXED) != 0;
    }

    public SubmissionQueue sq() {
        return sq;
    }

    public CompletionQueue cq() {
        return cq;
    }

    /** io_uring_enter calls this ring has made. */
    public long enters() {
        return enters;
    }

    /** Of {@link #enters}, those that woke a sleeping SQ thread. */
    public long wakeups() {
        return wakeups;
    }

    /**
     * Registers {@code buffers} (direct, each registered whole) for READ_FIXED/WRITE_FIXED, index = list position.
     *
     * @throws NativeException with RLIMIT_MEMLOCK named when the kernel refuses to pin them (ENOMEM)
     */
    public RegisteredBuffers registerBuffers(List<ByteBuffer> list) throws NativeException {
        checkOpen();
        if (buffers != null) {
            throw new IllegalStateException("this ring has registered buffers already");
        }
        buffers = RegisteredBuffers.register(fd, list);
        return buffers;
    }

    /** Registers {@code fds} for IOSQE_FIXED_FILE, index = array position. */
    public RegisteredFiles registerFiles(int... fds) throws NativeException {
        checkOpen();
        if (files != null) {
            throw new IllegalStateException("this ring has registered files already");
        }
        files = RegisteredFiles.register(fd, fds);
        return files;
    }

    /**
     * Unregisters the ring's files (their references dropped), so others can be registered: a ring that outlives one
     * transfer registers each transfer's descriptors and lets go of them after it.
     */
    public void unregisterFiles() throws NativeException {
        checkOpen();
        if (files != null) {
            RegisteredFiles held = files;
            files = null;
            held.close();
        }
    }

    /** Hands the queued entries to the kernel without waiting for any completion. */
    public void submit() throws NativeException {
        submitAndWait(0);
    }

    /**
     * Hands the queued entries to the kernel and returns once at least {@code minComplete} completions are ready. A
     * plain ring does it in one io_uring_enter (none when nothing is queued and enough are ready). An SQPOLL ring
     * enters only to wake its SQ thread, and waits by watching the CQ, as fio's {@code --sqthread_poll} does: the
     * waiting thread spins, a cost its CPU figures show.
     */
    public void submitAndWait(int minComplete) throws NativeException {
        checkOpen();
        sq.publish();
        if (options.sqPoll()) {
            entered = sq.tail();
            wakeSqThreadOnce();
            awaitPolled(minComplete);
            return;
        }
        int pending = sq.tail() - entered;
        if (pending == 0 && cq.ready() >= minComplete) {
            return;
        }
        entered += enter(pending, minComplete, minComplete > 0 ? UringAbi.ENTER_GETEVENTS : 0);
    }

    /**
     * Returns once the SQ has room for one more entry. An SQPOLL thread hands the SQ head back after a whole batch,
     * so completions of a batch can be posted while the SQ still looks full: then this polls the head (waking the
     * thread if it sleeps); a plain ring's full SQ is entries not yet submitted, which one io_uring_enter takes.
     */
    public void awaitSubmissionRoom() throws NativeException {
        checkOpen();
        int spins = 0;
        while (!sq.hasRoom(1)) {
            if (!options.sqPoll()) {
                submit();
            } else {
                pollOnce(spins++);
            }
        }
    }

    /**
     * Wakes a sleeping SQ thread once per published tail. Its NEED_WAKEUP flag stays set until the woken thread
     * runs, which on a busy machine can take a while: waking on every poll while the flag is set would turn one sleep
     * into hundreds of io_uring_enter calls.
     */
    private void wakeSqThreadOnce() throws NativeException {
        if (sq.tail() != wokenAtTail && sq.queued() > 0 && sq.needsWakeup()) {
            wakeSqThread();
        }
    }

    private void wakeSqThread() throws NativeException {
        wokenAtTail = sq.tail();
        wakeups++;
        enter(0, 0, UringAbi.ENTER_SQ_WAKEUP);
    }

    /**
     * One poll of an SQPOLL ring: wakes the SQ thread if entries it has not seen wait, and after every
     * {@link #SQPOLL_SPINS} polls wakes it again if it still sleeps (a guard against a lost wakeup).
     */
    private void pollOnce(int spins) throws NativeException {
        if (spins > 0 && spins % SQPOLL_SPINS == 0 && sq.queued() > 0 && sq.needsWakeup()) {
            wakeSqThread();
        } else {
            wakeSqThreadOnce();
            Thread.onSpinWait();
        }
    }

    private void awaitPolled(int minComplete) throws NativeException {
        int spins = 0;
        while (cq.ready() < minComplete) {
            if (++spins == SQPOLL_SPINS) {
                // The guard against a lost wakeup: block in the kernel, waking the SQ thread in the same call if it sleeps.
                int flags = UringAbi.ENTER_GETEVENTS;
                if (sq.queued() > 0 && sq.needsWakeup()) {
                    wokenAtTail = sq.tail();
                    wakeups++;
                    flags |= UringAbi.ENTER_SQ_WAKEUP;
                }
                enter(0, minComplete, flags);
                return;
            }
            wakeSqThreadOnce();
            Thread.onSpinWait();
        }
    }

    private int enter(int toSubmit, int minComplete, int flags) throws NativeException {
        while (true) {
            enters++;
            try {
                return (int) UringCalls.enter(fd, toSubmit, minComplete, flags);
            } catch (LastErrorException e) {
                if (e.getErrorCode() != Errno.EINTR) {
                    throw new NativeException("io_uring_enter(" + toSubmit + " to submit, wait for " + minComplete + ")",
                            e.getErrorCode());
                }
            }
        }
    }

    @Override
    public void close() throws NativeException {
        if (closed) {
            return;
        }
        closed = true;
        NativeException first = null;
        for (AutoCloseable step : new AutoCloseable[] {buffers, files, sqeArray, rings}) {
            if (step == null) {
                continue;
            }
            try {
                step.close();
            } catch (Exception e) {
                first = first == null ? asNative(e) : first;
            }
        }
        try {
            UringCalls.close(fd);
        } catch (LastErrorException e) {
            first = first == null ? new NativeException("close(io_uring fd " + fd + ")", e.getErrorCode()) : first;
        }
        if (first != null) {
            throw first;
        }
    }

    private static NativeException asNative(Exception e) {
        if (e instanceof NativeException n) {
            return n;
        }
        NativeException wrapped = new NativeException("io_uring teardown", Errno.EIO, e.toString());
        wrapped.initCause(e);
        return wrapped;
    }

    private static void closeQuietly(int fd) {
        try {
            UringCalls.close(fd);
        } catch (LastErrorException ignored) {
            // The first failure is the one worth reporting.
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the ring is closed");
        }
    }
}
