package io.xferbench.nativeio.uring;

import java.util.ArrayList;
import java.util.List;

/** The kernel's io_uring ABI values this package uses (include/uapi/linux/io_uring.h; the same on every architecture). */
final class UringAbi {
    static final int SETUP_SQPOLL = 1 << 1;
    static final int SETUP_CQSIZE = 1 << 3;
    static final int SETUP_SINGLE_ISSUER = 1 << 12;
    static final int SETUP_DEFER_TASKRUN = 1 << 13;

    static final int FEAT_SINGLE_MMAP = 1;
    static final int FEAT_NODROP = 1 << 1;
    static final int FEAT_SQPOLL_NONFIXED = 1 << 7;

    static final int ENTER_GETEVENTS = 1;
    static final int ENTER_SQ_WAKEUP = 1 << 1;

    static final int SQ_NEED_WAKEUP = 1;

    static final long OFF_SQ_RING = 0L;
    static final long OFF_CQ_RING = 0x8000000L;
    static final long OFF_SQES = 0x10000000L;

    static final byte OP_READ_FIXED = 4;
    static final byte OP_WRITE_FIXED = 5;
    static final byte OP_READ = 22;
    static final byte OP_WRITE = 23;
    static final byte OP_SEND = 26;
    static final byte OP_SEND_ZC = 47;

    static final byte SQE_FIXED_FILE = 1;

    /** In a send's ioprio: the buffer is registered buffer buf_index (SEND_ZC, Linux 6.0). */
    static final short RECVSEND_FIXED_BUF = 1 << 2;

    static final int CQE_F_MORE = 1 << 1;
    static final int CQE_F_NOTIF = 1 << 3;

    static final int REGISTER_BUFFERS = 0;
    static final int UNREGISTER_BUFFERS = 1;
    static final int REGISTER_FILES = 2;
    static final int UNREGISTER_FILES = 3;

    /** struct io_uring_params: 120 bytes, with io_sqring_offsets at 40 and io_cqring_offsets at 80. */
    static final int PARAMS_BYTES = 120;
    static final int PARAMS_SQ_ENTRIES = 0;
    static final int PARAMS_CQ_ENTRIES = 4;
    static final int PARAMS_FLAGS = 8;
    static final int PARAMS_SQ_THREAD_IDLE = 16;
    static final int PARAMS_FEATURES = 20;
    static final int SQ_OFF = 40;
    static final int CQ_OFF = 80;
    /** Offsets of the fields within io_sqring_offsets / io_cqring_offsets (u32 each). */
    static final int OFF_HEAD = 0;
    static final int OFF_TAIL = 4;
    static final int OFF_RING_MASK = 8;
    static final int OFF_RING_ENTRIES = 12;
    static final int SQ_OFF_FLAGS = 16;
    static final int SQ_OFF_ARRAY = 24;
    static final int CQ_OFF_CQES = 20;

    /** struct io_uring_sqe: 64 bytes. */
    static final int SQE_BYTES = 64;
    static final int SQE_OPCODE = 0;
    static final int SQE_FLAGS = 1;
    static final int SQE_IOPRIO = 2;
    static final int SQE_FD = 4;
    static final int SQE_OFF = 8;
    static final int SQE_ADDR = 16;
    static final int SQE_LEN = 24;
    static final int SQE_RW_FLAGS = 28;
    static final int SQE_USER_DATA = 32;
    static final int SQE_BUF_INDEX = 40;
    static final int SQE_PERSONALITY = 42;
    static final int SQE_SPLICE_FD_IN = 44;
    static final int SQE_ADDR3 = 48;
    static final int SQE_PAD = 56;

    /** struct io_uring_cqe: 16 bytes. */
    static final int CQE_BYTES = 16;
    static final int CQE_USER_DATA = 0;
    static final int CQE_RES = 8;
    static final int CQE_FLAGS = 12;

    private UringAbi() {
    }

    /** The names of the IORING_SETUP_* bits in {@code flags} this package sets; any other bit in hex. */
    static List<String> setupFlagNames(int flags) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < 32; bit++) {
            if ((flags & 1 << bit) != 0) {
                names.add(name(1 << bit));
            }
        }
        return names;
    }

    private static String name(int flag) {
        return switch (flag) {
            case SETUP_SQPOLL -> "SQPOLL";
            case SETUP_CQSIZE -> "CQSIZE";
            case SETUP_SINGLE_ISSUER -> "SINGLE_ISSUER";
            case SETUP_DEFER_TASKRUN -> "DEFER_TASKRUN";
            default -> "0x" + Integer.toHexString(flag);
        };
    }
}
