/*
 * xfer_uring_twin: the liburing twins of xferbench's io_uring download methods. Each mode drives io_uring the way
 * its Java method does (core.uring's engine, or Netty's io_uring FileRegion), so "Java / C twin" is what Netty's
 * event loop and the JVM cost on top of the same SQEs. Same wire and result line as xfer_twin (twin_common.h).
 *
 *   xfer_uring_twin MODE FILE HOST PORT [bufsize] [length] [depth]
 *
 * MODE               SQEs                                                          Java method
 *   uring-read-send  depth buffers of bufsize, each IORING_OP_READ of its next chunk   io-uring-read-send
 *                    at a 64-bit offset (all reads in flight); the ready chunks at the
 *                    head of file order go out as ONE IORING_OP_SENDMSG (an iovec per
 *                    chunk, MSG_WAITALL|MSG_NOSIGNAL), one send in flight at a time; a
 *                    buffer reads again once its bytes were sent
 *   uring-send-zc    the same with IORING_OP_SENDMSG_ZC; a buffer reads again only after io-uring-send-zc
 *                    the notification CQE (IORING_CQE_F_NOTIF) of the batch it was in
 *   uring-direct     uring-read-send with the file opened O_DIRECT: whole aligned blocks io-uring-direct
 *                    into 4 KiB-aligned buffers, only the bytes in range are sent
 *   uring-splice     IORING_OP_SPLICE file -> pipe (default 64 KiB pipe), then            io-uring
 *                    IORING_OP_SPLICE pipe -> socket until the pipe is empty, one SQE at a
 *                    time, SPLICE_F_MOVE (Netty 4.2.18 IoUringFileRegion)
 *   uring-splice-linked  a pipe of bufsize (F_SETPIPE_SZ, made before the timed span as   io-uring-splice-linked
 *                    the Java side's pipe pool does); per round IORING_OP_SPLICE file ->
 *                    pipe of min(pipe, rest) at a 64-bit offset with IOSQE_IO_LINK, and
 *                    IORING_OP_SPLICE pipe -> socket of the same length (SPLICE_F_NONBLOCK),
 *                    one io_uring_enter for the pair; what a short pair left in the pipe
 *                    goes out by another socket splice before the next round
 *                    (core.uring.LinkedSplicePipeline)
 *   uring-fixed-send a plain ring of depth + 2 entries, depth buffers of bufsize    uring-fixed-send
 *                    registered (IORING_REGISTER_BUFFERS) and the file and socket
 *                    registered (IORING_REGISTER_FILES), all inside the timed span as
 *                    the Java sender sets them up on its connection's first transfer;
 *                    each buffer IORING_OP_READ_FIXED of its next chunk (fixed file, 64-bit
 *                    offset, all reads in flight), the chunks sent in file order by ONE
 *                    IORING_OP_SEND each (fixed file, MSG_WAITALL|MSG_NOSIGNAL), one send
 *                    in flight; a buffer reads again once its chunk was sent
 *                    (core.uring.FixedSendPipeline)
 *   uring-fixed-send-zc  the same with IORING_OP_SEND_ZC from the registered buffer       uring-fixed-send-zc
 *                    (IORING_RECVSEND_FIXED_BUF); a buffer reads again only after every
 *                    notification CQE (IORING_CQE_F_NOTIF) of its sends
 *
 * and the one receiving mode, the twin of the upload method io-uring-recv-write (core.uring.SocketToFilePipeline):
 *
 *   xfer_uring_twin uring-recv-write TARGET HOST PORT [bufsize] [length] [depth]
 *
 *   creates TARGET (O_CREAT|O_EXCL|O_RDWR, as the server's upload temp file) and listens on HOST:PORT (PORT 0: any
 *   free one), prints "xfer_uring_twin accepting port=P" once both are ready, accepts ONE connection, reads the
 *   8-byte big-endian length (must equal length when that is given), then: one IORING_OP_RECV (MSG_WAITALL) at a
 *   time into the next free buffer (a FIFO, as the Java side's ArrayDeque), never asked for more than the body still
 *   owes; the CRC32C of the bytes is taken as each RECV completes (the Java receiver returns it; SSE4.2, three
 *   lanes, as HotSpot's intrinsic); each full buffer is an IORING_OP_WRITE at its 64-bit file offset, so up to
 *   depth - 1 writes are in flight behind the receive; a short write is resubmitted for the rest and a buffer is
 *   reused only after its write completed in full. The span (and the result line, with " crc32c=HEX" appended) runs
 *   from accept() returning to the last write's CQE; no fsync and no re-read, as the receiver itself does neither
 *   (the server's optional verify comes after it). Then it expects EOF. Killed with its parent (PR_SET_PDEATHSIG).
 *
 * depth (default 4) and bufsize (default 64 KiB) must be the Java side's (TwinBench passes both); uring-splice
 * ignores both, uring-splice-linked takes bufsize as its pipe size. The loop is the event loop's: queue SQEs, io_uring_submit_and_wait(1), handle every
 * CQE, repeat. The ring is set up like Netty 4.2.18's (SUBMIT_ALL, SINGLE_ISSUER, DEFER_TASKRUN where the kernel
 * has them; io-wq capped at 4 bounded + 4 unbounded workers, IoUringWorkers.DEFAULT_MAX_PER_RING) before the
 * timed span starts, as the JVM's ring exists before a transfer. Any failed CQE ends the program (exit 1).
 * gcc -O2 ... -luring (Debian: liburing-dev).
 */
#include "twin_common.h"

#include <fcntl.h>
#include <limits.h>
#include <liburing.h>
#include <stdint.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>

#ifndef IORING_SETUP_SUBMIT_ALL
#define IORING_SETUP_SUBMIT_ALL (1U << 7)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif

#define DIRECT_ALIGN 4096        /* O_DIRECT block and buffer alignment (Java: statx DIOALIGN, at most a page here) */
#define IOWQ_MAX_WORKERS 4       /* IoUringWorkers.DEFAULT_MAX_PER_RING */
#define KIND_READ 1ULL
#define KIND_SEND 2ULL
#define KIND_SPLICE_IN 3ULL
#define KIND_SPLICE_OUT 4ULL
#define KIND_LINKED_IN 5ULL
#define KIND_LINKED_OUT 6ULL
#define KIND_RECV 7ULL
#define KIND_WRITE 8ULL
#define KIND_FIXED_READ 9ULL
#define KIND_FIXED_SEND 10ULL
#define USER_DATA(kind, n) ((kind) << 32 | (uint32_t) (n))

static void usage(void) {
    fprintf(stderr, "usage: xfer_uring_twin uring-read-send|uring-send-zc|uring-direct|uring-splice|uring-splice-linked|uring-fixed-send|uring-fixed-send-zc"
                    " FILE HOST PORT"
                    " [bufsize] [length] [depth] | uring-recv-write TARGET HOST PORT [bufsize] [length] [depth]\n");
    exit(2);
}

static void die_res(const char *what, int res) {
    errno = -res;
    die(what);
}

/* Netty's setup flags where this kernel has them; plain otherwise. */
static void ring_init(struct io_uring *ring, unsigned entries) {
    struct io_uring_params p = {.flags = IORING_SETUP_CLAMP | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER
                                         | IORING_SETUP_DEFER_TASKRUN};
    int rc = io_uring_queue_init_params(entries, ring, &p);
    if (rc == -EINVAL) {
        struct io_uring_params plain = {.flags = IORING_SETUP_CLAMP};
        rc = io_uring_queue_init_params(entries, ring, &plain);
    }
    if (rc < 0) die_res("io_uring_queue_init_params", rc);
    unsigned workers[2] = {IOWQ_MAX_WORKERS, IOWQ_MAX_WORKERS};
    rc = io_uring_register_iowq_max_workers(ring, workers);
    if (rc < 0) die_res("io_uring_register_iowq_max_workers", rc);
}

static struct io_uring_sqe *sqe_of(struct io_uring *ring) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
    if (!sqe) { errno = EBUSY; die("io_uring_get_sqe: submission queue full"); }
    return sqe;
}

/* ---- uring-read-send, uring-send-zc, uring-direct: core.uring.FileToSocketPipeline in C ---- */

enum slot_state { IDLE, READING, READY, SENDING, SENT, RETIRED };

/* One buffer and the chunk it holds: read into [0, read_len) from read_off, sent from [send_from, send_to). */
struct slot {
    char *buf;
    enum slot_state state;
    long long read_off;
    int read_len, filled, send_from, send_to, sent;
    int awaiting_batch;          /* SENDMSG_ZC: the batch whose notification gives the pages back, or -1 */
};

struct pipeline {
    struct io_uring *ring;
    int file, sock, zero_copy, depth, capacity, alignment;
    struct slot *slots;
    int *order, order_head, order_len;   /* slots in file order, a ring of depth entries */
    int *batch, batch_len;               /* the slots of the SENDMSG in flight */
    struct iovec *iov;
    struct msghdr msg;
    int send_in_flight, batch_id, ops_in_flight;
    long long next_read, end, sent;
};

static void submit_read(struct pipeline *p, int i) {
    struct slot *s = &p->slots[i];
    struct io_uring_sqe *sqe = sqe_of(p->ring);
    io_uring_prep_read(sqe, p->file, s->buf + s->filled, (unsigned) (s->read_len - s->filled),
                       (unsigned long long) (s->read_off + s->filled));
    io_uring_sqe_set_data64(sqe, USER_DATA(KIND_READ, i));
    p->ops_in_flight++;
}

/* The chunk of [next_read, end) that starts at next_read, read from the block boundary at or before it. */
static void read_next_chunk(struct pipeline *p, int i) {
    struct slot *s = &p->slots[i];
    int skip = (int) (p->next_read % p->alignment);
    long long n = p->end - p->next_read < p->capacity - skip ? p->end - p->next_read : p->capacity - skip;
    s->read_off = p->next_read - skip;
    s->read_len = (int) ((skip + n + p->alignment - 1) / p->alignment * p->alignment);
    s->filled = 0;
    s->send_from = skip;
    s->send_to = skip + (int) n;
    s->sent = 0;
    s->state = READING;
    p->next_read += n;
    p->order[(p->order_head + p->order_len++) % p->depth] = i;
    submit_read(p, i);
}

static void recycle_if_done(struct pipeline *p, int i) {
    struct slot *s = &p->slots[i];
    if (s->state == RETIRED && s->awaiting_batch < 0 && p->next_read < p->end) read_next_chunk(p, i);
}

/* Every ready chunk at the head of file order in one SENDMSG, unless one is in flight. */
static void try_send(struct pipeline *p) {
    if (p->send_in_flight) return;
    p->batch_len = 0;
    for (int k = 0; k < p->order_len; k++) {
        int i = p->order[(p->order_head + k) % p->depth];
        struct slot *s = &p->slots[i];
        if (s->state != READY) break;
        p->iov[p->batch_len].iov_base = s->buf + s->send_from + s->sent;
        p->iov[p->batch_len].iov_len = (size_t) (s->send_to - s->send_from - s->sent);
        p->batch[p->batch_len++] = i;
    }
    if (p->batch_len == 0) return;
    for (int k = 0; k < p->batch_len; k++) p->slots[p->batch[k]].state = SENDING;
    p->msg.msg_iov = p->iov;
    p->msg.msg_iovlen = (size_t) p->batch_len;
    p->batch_id = (p->batch_id + 1) & 0x7fff;
    struct io_uring_sqe *sqe = sqe_of(p->ring);
    if (p->zero_copy) io_uring_prep_sendmsg_zc(sqe, p->sock, &p->msg, MSG_WAITALL | MSG_NOSIGNAL);
    else io_uring_prep_sendmsg(sqe, p->sock, &p->msg, MSG_WAITALL | MSG_NOSIGNAL);
    io_uring_sqe_set_data64(sqe, USER_DATA(KIND_SEND, p->batch_id));
    p->ops_in_flight++;
    p->send_in_flight = 1;
}

static void on_read(struct pipeline *p, int i, int res) {
    struct slot *s = &p->slots[i];
    if (res < 0) die_res("io_uring read", res);
    if (res == 0) { errno = 0; die("io_uring read: file ended early"); }
    s->filled += res;
    if (s->filled >= s->send_to) {
        s->state = READY;
        try_send(p);
    } else {
        submit_read(p, i); /* a short read: the rest of the chunk */
    }
}

static void on_send(struct pipeline *p, int batch_id, int res, unsigned flags) {
    if (flags & IORING_CQE_F_NOTIF) { /* SENDMSG_ZC: the pages of that batch are free again */
        for (int i = 0; i < p->depth; i++) {
            if (p->slots[i].awaiting_batch == batch_id) {
                p->slots[i].awaiting_batch = -1;
                recycle_if_done(p, i);
            }
        }
        return;
    }
    p->send_in_flight = 0;
    if (flags & IORING_CQE_F_MORE) {
        for (int k = 0; k < p->batch_len; k++) p->slots[p->batch[k]].awaiting_batch = batch_id;
    }
    if (res < 0) die_res(p->zero_copy ? "io_uring sendmsg_zc" : "io_uring sendmsg", res);
    p->sent += res;
    int left = res; /* MSG_WAITALL: short only when the socket failed part way; the rest goes again (and fails) */
    for (int k = 0; k < p->batch_len; k++) {
        struct slot *s = &p->slots[p->batch[k]];
        int want = s->send_to - s->send_from - s->sent;
        int n = left < want ? left : want;
        s->sent += n;
        left -= n;
        s->state = s->sent == s->send_to - s->send_from ? SENT : READY;
    }
    while (p->order_len > 0 && p->slots[p->order[p->order_head]].state == SENT) {
        int i = p->order[p->order_head];
        p->order_head = (p->order_head + 1) % p->depth;
        p->order_len--;
        p->slots[i].state = RETIRED;
        recycle_if_done(p, i);
    }
    try_send(p);
}

static void send_pipeline(struct io_uring *ring, int file, int sock, long long len, size_t bufsize, int depth,
                          int zero_copy, int alignment) {
    struct pipeline p = {.ring = ring, .file = file, .sock = sock, .zero_copy = zero_copy, .depth = depth,
                         .alignment = alignment, .next_read = 0, .end = len};
    p.capacity = (int) (bufsize / (size_t) alignment * (size_t) alignment);
    if (p.capacity < alignment) p.capacity = alignment;
    size_t buffer_align = alignment > 4096 ? (size_t) alignment : 4096;
    p.slots = calloc((size_t) depth, sizeof *p.slots);
    p.order = calloc((size_t) depth, sizeof *p.order);
    p.batch = calloc((size_t) depth, sizeof *p.batch);
    p.iov = calloc((size_t) depth, sizeof *p.iov);
    if (!p.slots || !p.order || !p.batch || !p.iov) die("calloc");
    for (int i = 0; i < depth; i++) {
        p.slots[i].buf = aligned_alloc(buffer_align, (size_t) p.capacity);
        if (!p.slots[i].buf) die("aligned_alloc");
        p.slots[i].awaiting_batch = -1;
    }
    for (int i = 0; i < depth && p.next_read < p.end; i++) read_next_chunk(&p, i);
    while (p.ops_in_flight > 0) {
        int rc = io_uring_submit_and_wait(ring, 1);
        if (rc < 0 && rc != -EINTR) die_res("io_uring_submit_and_wait", rc);
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe(ring, head, cqe) {
            seen++;
            uint64_t data = io_uring_cqe_get_data64(cqe);
            if (!(cqe->flags & IORING_CQE_F_MORE)) p.ops_in_flight--;
            if (data >> 32 == KIND_READ) on_read(&p, (int) (uint32_t) data, cqe->res);
            else on_send(&p, (int) (uint32_t) data, cqe->res, cqe->flags);
        }
        io_uring_cq_advance(ring, seen);
    }
    if (p.sent != len) { errno = 0; die("sent fewer bytes than asked"); }
    for (int i = 0; i < depth; i++) free(p.slots[i].buf);
    free(p.slots);
    free(p.order);
    free(p.batch);
    free(p.iov);
}

/* ---- uring-fixed-send, uring-fixed-send-zc: core.uring.FixedSendPipeline in C ---- */

#define FIXED_FILE 0
#define FIXED_SOCKET 1

/* One registered buffer and the chunk it holds: [off, off + len) of the file, filled and sent so far. */
struct fixed_slot {
    long long off;
    int len, filled, sent, notifications, ready;
};

static void fixed_read(struct io_uring *ring, struct fixed_slot *s, char *buf, int i) {
    struct io_uring_sqe *sqe = sqe_of(ring);
    io_uring_prep_read_fixed(sqe, FIXED_FILE, buf + s->filled, (unsigned) (s->len - s->filled),
                             (unsigned long long) (s->off + s->filled), i);
    sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, USER_DATA(KIND_FIXED_READ, i));
}

static void fixed_send(struct io_uring *ring, struct fixed_slot *s, char *buf, int i, int zero_copy) {
    struct io_uring_sqe *sqe = sqe_of(ring);
    size_t n = (size_t) (s->len - s->sent);
    if (zero_copy) io_uring_prep_send_zc_fixed(sqe, FIXED_SOCKET, buf + s->sent, n, MSG_WAITALL | MSG_NOSIGNAL, 0, (unsigned) i);
    else io_uring_prep_send(sqe, FIXED_SOCKET, buf + s->sent, n, MSG_WAITALL | MSG_NOSIGNAL);
    sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, USER_DATA(KIND_FIXED_SEND, i));
}

static void send_fixed(int file, int sock, long long len, size_t bufsize, int depth, int zero_copy) {
    struct io_uring ring;
    int rc = io_uring_queue_init((unsigned) depth + 2, &ring, 0); /* the Java sender's RingOptions.plain(depth + 2) */
    if (rc < 0) die_res("io_uring_queue_init", rc);
    char **bufs = calloc((size_t) depth, sizeof *bufs);
    struct iovec *iov = calloc((size_t) depth, sizeof *iov);
    struct fixed_slot *slots = calloc((size_t) depth, sizeof *slots);
    int *order = calloc((size_t) depth, sizeof *order), *free_slots = calloc((size_t) depth, sizeof *free_slots);
    if (!bufs || !iov || !slots || !order || !free_slots) die("calloc");
    for (int i = 0; i < depth; i++) {
        bufs[i] = aligned_alloc(4096, (bufsize + 4095) / 4096 * 4096);
        if (!bufs[i]) die("aligned_alloc");
        iov[i].iov_base = bufs[i];
        iov[i].iov_len = bufsize;
    }
    rc = io_uring_register_buffers(&ring, iov, (unsigned) depth);
    if (rc < 0) die_res("io_uring_register_buffers", rc);
    int fds[2] = {file, sock};
    rc = io_uring_register_files(&ring, fds, 2);
    if (rc < 0) die_res("io_uring_register_files", rc);
    long long chunks = (len + (long long) bufsize - 1) / (long long) bufsize, next_read = 0, next_send = 0, sent = 0;
    int free_count = 0, in_flight = 0, sending = 0;
    for (int i = depth - 1; i >= 0; i--) free_slots[free_count++] = i;
    while (in_flight > 0 || next_send < chunks) {
        while (free_count > 0 && next_read < chunks) {
            int i = free_slots[--free_count];
            struct fixed_slot *s = &slots[i];
            s->off = next_read * (long long) bufsize;
            s->len = (int) (len - s->off < (long long) bufsize ? len - s->off : (long long) bufsize);
            s->filled = s->sent = s->ready = 0;
            order[next_read++ % depth] = i;
            fixed_read(&ring, s, bufs[i], i);
            in_flight++;
        }
        if (!sending && next_send < chunks) {
            int i = order[next_send % depth];
            if (slots[i].ready) {
                fixed_send(&ring, &slots[i], bufs[i], i, zero_copy);
                in_flight++;
                sending = 1;
            }
        }
        rc = io_uring_submit_and_wait(&ring, 1);
        if (rc < 0 && rc != -EINTR) die_res("io_uring_submit_and_wait", rc);
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe(&ring, head, cqe) {
            seen++;
            uint64_t data = io_uring_cqe_get_data64(cqe);
            int i = (int) (uint32_t) data, res = cqe->res;
            struct fixed_slot *s = &slots[i];
            if (data >> 32 == KIND_FIXED_READ) {
                in_flight--;
                if (res < 0) die_res("io_uring read_fixed", res);
                if (res == 0) { errno = 0; die("io_uring read_fixed: file ended early"); }
                s->filled += res;
                if (s->filled < s->len) { fixed_read(&ring, s, bufs[i], i); in_flight++; }
                else s->ready = 1;
                continue;
            }
            if (cqe->flags & IORING_CQE_F_NOTIF) {
                in_flight--;
                s->notifications--;
            } else {
                if (cqe->flags & IORING_CQE_F_MORE) s->notifications++;
                else in_flight--;
                sending = 0;
                if (res < 0) die_res(zero_copy ? "io_uring send_zc" : "io_uring send", res);
                s->sent += res; /* MSG_WAITALL: short only when the socket failed part way; the rest goes again */
                sent += res;
                if (s->sent == s->len) { s->ready = 0; next_send++; }
            }
            if (!s->ready && s->sent == s->len && s->notifications == 0) {
                s->sent = -1;
                free_slots[free_count++] = i;
            }
        }
        io_uring_cq_advance(&ring, seen);
    }
    if (sent != len) { errno = 0; die("sent fewer bytes than asked"); }
    io_uring_queue_exit(&ring); /* unregisters the buffers and files, as the Java sender's close */
    for (int i = 0; i < depth; i++) free(bufs[i]);
    free(bufs);
    free(iov);
    free(slots);
    free(order);
    free(free_slots);
}

/* ---- uring-splice: Netty's IoUringFileRegion ---- */

static struct io_uring_cqe *wait_one(struct io_uring *ring, uint64_t expect) {
    struct io_uring_cqe *cqe;
    int rc;
    do {
        rc = io_uring_submit_and_wait(ring, 1);
    } while (rc == -EINTR);
    if (rc < 0) die_res("io_uring_submit_and_wait", rc);
    rc = io_uring_peek_cqe(ring, &cqe);
    if (rc < 0) die_res("io_uring_peek_cqe", rc);
    if (io_uring_cqe_get_data64(cqe) != expect) { errno = 0; die("unexpected completion"); }
    return cqe;
}

static void send_uring_splice(struct io_uring *ring, int file, int sock, long long len) {
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) < 0) die("pipe2");
    long long off = 0;
    while (off < len) {
        long long rem = len - off;
        struct io_uring_sqe *sqe = sqe_of(ring);
        io_uring_prep_splice(sqe, file, off, pipefd[1], -1, rem > INT_MAX ? INT_MAX : (unsigned) rem, SPLICE_F_MOVE);
        io_uring_sqe_set_data64(sqe, USER_DATA(KIND_SPLICE_IN, 0));
        struct io_uring_cqe *cqe = wait_one(ring, USER_DATA(KIND_SPLICE_IN, 0));
        int in = cqe->res;
        io_uring_cqe_seen(ring, cqe);
        if (in < 0) die_res("io_uring splice(file -> pipe)", in);
        if (in == 0) { errno = 0; die("io_uring splice: file ended early"); }
        off += in;
        while (in > 0) {
            sqe = sqe_of(ring);
            io_uring_prep_splice(sqe, pipefd[0], -1, sock, -1, (unsigned) in, SPLICE_F_MOVE);
            io_uring_sqe_set_data64(sqe, USER_DATA(KIND_SPLICE_OUT, 0));
            cqe = wait_one(ring, USER_DATA(KIND_SPLICE_OUT, 0));
            int out = cqe->res;
            io_uring_cqe_seen(ring, cqe);
            if (out < 0) die_res("io_uring splice(pipe -> socket)", out);
            in -= out;
        }
    }
    close(pipefd[0]);
    close(pipefd[1]);
}

/* ---- uring-splice-linked: core.uring.LinkedSplicePipeline ---- */

/* Submits what is queued and reaps CQEs until none of the pair's SQEs is in flight; returns each one's result. */
static void reap_pair(struct io_uring *ring, int *in_flight, int *in_res, int *out_res) {
    while (*in_flight > 0) {
        int rc = io_uring_submit_and_wait(ring, 1);
        if (rc < 0 && rc != -EINTR) die_res("io_uring_submit_and_wait", rc);
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe(ring, head, cqe) {
            seen++;
            (*in_flight)--;
            if (io_uring_cqe_get_data64(cqe) == USER_DATA(KIND_LINKED_IN, 0)) *in_res = cqe->res;
            else *out_res = cqe->res;
        }
        io_uring_cq_advance(ring, seen);
    }
}

static void splice_to_socket(struct io_uring *ring, int pipe_read, int sock, int n) {
    struct io_uring_sqe *sqe = sqe_of(ring);
    io_uring_prep_splice(sqe, pipe_read, -1, sock, -1, (unsigned) n, SPLICE_F_NONBLOCK);
    io_uring_sqe_set_data64(sqe, USER_DATA(KIND_LINKED_OUT, 0));
}

static void send_splice_linked(struct io_uring *ring, int file, int sock, long long len, const int pipefd[2], int pipe_size) {
    long long off = 0, sent = 0;
    int in_pipe = 0;
    while (sent < len) {
        int in_flight = 0, in_res = 0, out_res = 0;
        if (in_pipe > 0) { /* a short pair: drain the pipe first */
            splice_to_socket(ring, pipefd[0], sock, in_pipe);
            in_flight = 1;
        } else {
            int n = len - off < pipe_size ? (int) (len - off) : pipe_size;
            struct io_uring_sqe *sqe = sqe_of(ring);
            io_uring_prep_splice(sqe, file, off, pipefd[1], -1, (unsigned) n, 0);
            sqe->flags |= IOSQE_IO_LINK;
            io_uring_sqe_set_data64(sqe, USER_DATA(KIND_LINKED_IN, 0));
            splice_to_socket(ring, pipefd[0], sock, n);
            in_flight = 2;
        }
        int pair = in_flight == 2;
        reap_pair(ring, &in_flight, &in_res, &out_res);
        if (pair) {
            if (in_res < 0) die_res("io_uring splice(file -> pipe)", in_res);
            if (in_res == 0) { errno = 0; die("io_uring splice: file ended early"); }
            off += in_res;
            in_pipe += in_res;
        }
        if (out_res > 0) {
            in_pipe -= out_res;
            sent += out_res;
        } else if (out_res == 0) {
            errno = 0;
            die("io_uring splice(pipe -> socket) moved nothing");
        } else if (out_res != -ECANCELED && out_res != -EAGAIN) {
            die_res("io_uring splice(pipe -> socket)", out_res);
        }
    }
}

/* ---- uring-recv-write: core.uring.SocketToFilePipeline in C ---- */

/*
 * CRC32C as java.util.zip.CRC32C computes it (HotSpot's intrinsic: the SSE4.2 crc32 instruction over three
 * independent lanes, joined by shifting), so the C receiver does the same checksum work as the Java one. The
 * register is kept raw (no inversion) between calls: start at ~0, invert at the end.
 */
#define CRC_LANE 8192

#if defined(__x86_64__)
#include <nmmintrin.h>

static uint32_t crc_lane_shift[4][256]; /* register -> register after CRC_LANE zero bytes, a table per byte */

__attribute__((target("sse4.2"))) static uint32_t crc_over_zeros(uint32_t crc, size_t n) {
    uint64_t c = crc;
    for (size_t i = 0; i < n / 8; i++) c = _mm_crc32_u64(c, 0);
    return (uint32_t) c;
}

/* The shift over zeros is linear in the register, so four byte tables compose it. */
static void crc32c_init(void) {
    for (int k = 0; k < 4; k++)
        for (uint32_t b = 0; b < 256; b++) crc_lane_shift[k][b] = crc_over_zeros(b << (8 * k), CRC_LANE);
}

static uint32_t crc_shift(uint32_t c) {
    return crc_lane_shift[0][c & 0xff] ^ crc_lane_shift[1][(c >> 8) & 0xff] ^ crc_lane_shift[2][(c >> 16) & 0xff]
           ^ crc_lane_shift[3][c >> 24];
}

static uint64_t load64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_update(uint32_t crc, const unsigned char *p, size_t n) {
    uint64_t c0 = crc;
    while (n > 0 && ((uintptr_t) p & 7)) { c0 = _mm_crc32_u8((uint32_t) c0, *p++); n--; }
    while (n >= 3 * CRC_LANE) { /* crc(c, A B C) = shift(shift(crc(c, A)) ^ crc(0, B)) ^ crc(0, C) */
        uint64_t c1 = 0, c2 = 0;
        for (size_t i = 0; i < CRC_LANE; i += 8) {
            c0 = _mm_crc32_u64(c0, load64(p + i));
            c1 = _mm_crc32_u64(c1, load64(p + CRC_LANE + i));
            c2 = _mm_crc32_u64(c2, load64(p + 2 * CRC_LANE + i));
        }
        c0 = crc_shift((uint32_t) c0) ^ (uint32_t) c1;
        c0 = crc_shift((uint32_t) c0) ^ (uint32_t) c2;
        p += 3 * CRC_LANE;
        n -= 3 * CRC_LANE;
    }
    for (; n >= 8; p += 8, n -= 8) c0 = _mm_crc32_u64(c0, load64(p));
    while (n-- > 0) c0 = _mm_crc32_u8((uint32_t) c0, *p++);
    return (uint32_t) c0;
}
#else
static void crc32c_init(void) {
}

/* Bitwise, elsewhere: correct, and far slower than the JVM's intrinsic (the ratio then flatters C's rival). */
static uint32_t crc32c_update(uint32_t crc, const unsigned char *p, size_t n) {
    while (n-- > 0) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1)));
    }
    return crc;
}
#endif

/* One buffer and the chunk it holds: file offset off, len bytes, done received (while receiving) or written. */
struct rslot {
    unsigned char *buf;
    long long off;
    int len, done;
};

struct receiver {
    struct io_uring *ring;
    int sock, file, depth, capacity;
    struct rslot *slots;
    int *free_q, free_head, free_len;    /* free slots, first in first out */
    int receiving, ops_in_flight;
    long long len, received, written;
    uint32_t crc;
};

static void submit_recv(struct receiver *r, int i) {
    struct rslot *s = &r->slots[i];
    struct io_uring_sqe *sqe = sqe_of(r->ring);
    io_uring_prep_recv(sqe, r->sock, s->buf + s->done, (size_t) (s->len - s->done), MSG_WAITALL);
    io_uring_sqe_set_data64(sqe, USER_DATA(KIND_RECV, i));
    r->ops_in_flight++;
}

static void submit_write(struct receiver *r, int i) {
    struct rslot *s = &r->slots[i];
    struct io_uring_sqe *sqe = sqe_of(r->ring);
    io_uring_prep_write(sqe, r->file, s->buf + s->done, (unsigned) (s->len - s->done), (unsigned long long) (s->off + s->done));
    io_uring_sqe_set_data64(sqe, USER_DATA(KIND_WRITE, i));
    r->ops_in_flight++;
}

/* The next chunk's RECV unless one is in flight, the body is all in, or every buffer is being written. */
static void receive_next(struct receiver *r) {
    if (r->receiving >= 0 || r->received == r->len || r->free_len == 0) return;
    int i = r->free_q[r->free_head];
    r->free_head = (r->free_head + 1) % r->depth;
    r->free_len--;
    struct rslot *s = &r->slots[i];
    s->off = r->received;
    s->len = r->len - r->received < r->capacity ? (int) (r->len - r->received) : r->capacity;
    s->done = 0;
    r->receiving = i;
    submit_recv(r, i);
}

static void on_recv(struct receiver *r, int i, int res) {
    struct rslot *s = &r->slots[i];
    if (res < 0) die_res("io_uring recv", res);
    if (res == 0) { errno = 0; die("io_uring recv: connection closed inside the body"); }
    r->crc = crc32c_update(r->crc, s->buf + s->done, (size_t) res);
    s->done += res;
    r->received += res;
    if (s->done < s->len) { /* short without MSG_WAITALL's help: the rest of the chunk */
        submit_recv(r, i);
        return;
    }
    r->receiving = -1;
    s->done = 0;
    submit_write(r, i);
    receive_next(r);
}

static void on_write(struct receiver *r, int i, int res) {
    struct rslot *s = &r->slots[i];
    if (res < 0) die_res("io_uring write", res);
    if (res == 0) { errno = 0; die("io_uring write wrote nothing"); }
    s->done += res;
    if (s->done < s->len) {
        submit_write(r, i);
        return;
    }
    r->written += s->len;
    r->free_q[(r->free_head + r->free_len++) % r->depth] = i;
    receive_next(r);
}

/* Receives len bytes from sock into file at [0, len); returns the CRC32C of the bytes. */
static uint32_t receive_pipeline(struct io_uring *ring, int sock, int file, long long len, size_t bufsize, int depth) {
    struct receiver r = {.ring = ring, .sock = sock, .file = file, .depth = depth, .capacity = (int) bufsize, .len = len,
                         .receiving = -1, .crc = 0xffffffffu};
    r.slots = calloc((size_t) depth, sizeof *r.slots);
    r.free_q = calloc((size_t) depth, sizeof *r.free_q);
    if (!r.slots || !r.free_q) die("calloc");
    size_t page = (size_t) sysconf(_SC_PAGESIZE); /* UringBuffers: page-aligned */
    for (int i = 0; i < depth; i++) {
        r.slots[i].buf = aligned_alloc(page, (bufsize + page - 1) / page * page);
        if (!r.slots[i].buf) die("aligned_alloc");
        r.free_q[r.free_len++] = i;
    }
    receive_next(&r);
    while (r.ops_in_flight > 0) {
        int rc = io_uring_submit_and_wait(ring, 1);
        if (rc < 0 && rc != -EINTR) die_res("io_uring_submit_and_wait", rc);
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe(ring, head, cqe) {
            seen++;
            r.ops_in_flight--;
            uint64_t data = io_uring_cqe_get_data64(cqe);
            if (data >> 32 == KIND_RECV) on_recv(&r, (int) (uint32_t) data, cqe->res);
            else on_write(&r, (int) (uint32_t) data, cqe->res);
        }
        io_uring_cq_advance(ring, seen);
    }
    if (r.written != len) { errno = 0; die("wrote fewer bytes than announced"); }
    for (int i = 0; i < depth; i++) free(r.slots[i].buf);
    free(r.slots);
    free(r.free_q);
    return ~r.crc;
}

static int listen_on(const char *host, const char *port) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "%s: %s:%s: %s\n", twin_name, host, port, gai_strerror(rc));
        exit(1);
    }
    int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
    if (fd < 0) die("socket");
    int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0) die("setsockopt(SO_REUSEADDR)");
    if (bind(fd, res->ai_addr, res->ai_addrlen) < 0) die("bind");
    freeaddrinfo(res);
    if (listen(fd, 1) < 0) die("listen");
    return fd;
}

static int bound_port(int fd) {
    struct sockaddr_storage a;
    socklen_t n = sizeof a;
    if (getsockname(fd, (struct sockaddr *) &a, &n) < 0) die("getsockname");
    return ntohs(a.ss_family == AF_INET6 ? ((struct sockaddr_in6 *) &a)->sin6_port : ((struct sockaddr_in *) &a)->sin_port);
}

static void read_all(int sock, unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t r = read(sock, p, n);
        if (r < 0) {
            if (errno == EINTR) continue;
            die("read(socket)");
        }
        if (r == 0) { errno = 0; die("connection closed inside the 8-byte length header"); }
        p += r;
        n -= (size_t) r;
    }
}

static int receive_main(const char *target, const char *host, const char *port, size_t bufsize, long long expect, int depth) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) die("prctl(PR_SET_PDEATHSIG)"); /* never left waiting in accept */
    crc32c_init();
    int file = open(target, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (file < 0) die(target);
    struct io_uring ring;
    ring_init(&ring, (unsigned) (2 * depth + 8)); /* one RECV and depth WRITEs fit */
    int server = listen_on(host, port);
    printf("xfer_uring_twin accepting port=%d\n", bound_port(server));
    fflush(stdout);
    int sock = accept4(server, NULL, NULL, SOCK_CLOEXEC);
    if (sock < 0) die("accept");
    struct twin_span span = span_start();
    int one = 1;
    if (setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) die("setsockopt(TCP_NODELAY)");
    unsigned char header[8];
    read_all(sock, header, sizeof header);
    long long len = 0;
    for (int i = 0; i < 8; i++) len = (long long) ((unsigned long long) len << 8 | header[i]);
    if (len < 0 || (expect >= 0 && len != expect)) {
        fprintf(stderr, "xfer_uring_twin: announced length %lld, expected %lld\n", len, expect);
        return 1;
    }
    uint32_t crc = len == 0 ? 0 : receive_pipeline(&ring, sock, file, len, bufsize, depth);
    char extra[32];
    snprintf(extra, sizeof extra, " crc32c=%08x", crc);
    span_report_with(&span, "uring-recv-write", len, extra);
    fflush(stdout);
    char probe;
    ssize_t tail;
    while ((tail = read(sock, &probe, 1)) < 0 && errno == EINTR) {
    }
    if (tail != 0) { errno = tail < 0 ? errno : 0; die("bytes after the announced length"); }
    close(sock);
    close(server);
    io_uring_queue_exit(&ring);
    if (close(file) < 0) die("close(target)");
    return 0;
}

int main(int argc, char **argv) {
    twin_name = "xfer_uring_twin";
    if (argc < 5 || argc > 8) usage();
    const char *mode = argv[1], *path = argv[2];
    size_t bufsize = argc > 5 ? (size_t) parse_size(argv[5]) : 64 * 1024;
    long long depth = argc > 7 ? parse_size(argv[7]) : 4;
    if (bufsize == 0 || bufsize > INT_MAX || depth < 1 || depth > 4096) usage();
    if (strcmp(mode, "uring-recv-write") == 0) {
        return receive_main(path, argv[3], argv[4], bufsize, argc > 6 ? parse_size(argv[6]) : -1, (int) depth);
    }
    int read_send = strcmp(mode, "uring-read-send") == 0, send_zc = strcmp(mode, "uring-send-zc") == 0;
    int direct = strcmp(mode, "uring-direct") == 0, splice_mode = strcmp(mode, "uring-splice") == 0;
    int linked = strcmp(mode, "uring-splice-linked") == 0;
    int fixed_send_mode = strcmp(mode, "uring-fixed-send") == 0, fixed_zc = strcmp(mode, "uring-fixed-send-zc") == 0;
    if (!read_send && !send_zc && !direct && !splice_mode && !linked && !fixed_send_mode && !fixed_zc) usage();
    int fd = open(path, O_RDONLY | O_CLOEXEC | (direct ? O_DIRECT : 0));
    if (fd < 0) die(path);
    struct stat st;
    if (fstat(fd, &st) < 0) die("fstat");
    long long len = argc > 6 ? parse_size(argv[6]) : (long long) st.st_size;
    if (len > st.st_size) {
        fprintf(stderr, "xfer_uring_twin: length %lld > file size %lld\n", len, (long long) st.st_size);
        return 2;
    }
    struct io_uring ring;
    ring_init(&ring, (unsigned) (2 * depth + 8)); /* depth reads + one send + a notification fit */
    int pipefd[2] = {-1, -1}, pipe_size = 0;
    if (linked) { /* the Java side's pipe comes from its pool: made before the transfer */
        if (pipe2(pipefd, O_CLOEXEC) < 0) die("pipe2");
        pipe_size = fcntl(pipefd[1], F_SETPIPE_SZ, (int) bufsize);
        if (pipe_size < 0) die("fcntl(F_SETPIPE_SZ)");
    }

    struct twin_span span = span_start();
    int sock = connect_to(argv[3], argv[4]);
    write_length_header(sock, len);
    if (fixed_send_mode || fixed_zc) send_fixed(fd, sock, len, bufsize, (int) depth, fixed_zc);
    else if (splice_mode) send_uring_splice(&ring, fd, sock, len);
    else if (linked) send_splice_linked(&ring, fd, sock, len, pipefd, pipe_size);
    else send_pipeline(&ring, fd, sock, len, bufsize, (int) depth, send_zc, direct ? DIRECT_ALIGN : 1);
    if (close(sock) < 0) die("close(socket)");
    span_report(&span, mode, len);
    io_uring_queue_exit(&ring);
    if (linked) {
        close(pipefd[0]);
        close(pipefd[1]);
    }
    close(fd);
    return 0;
}
