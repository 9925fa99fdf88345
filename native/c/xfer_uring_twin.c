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
#define USER_DATA(kind, n) ((kind) << 32 | (uint32_t) (n))

static void usage(void) {
    fprintf(stderr, "usage: xfer_uring_twin uring-read-send|uring-send-zc|uring-direct|uring-splice|uring-splice-linked FILE HOST PORT"
                    " [bufsize] [length] [depth]\n");
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

int main(int argc, char **argv) {
    twin_name = "xfer_uring_twin";
    if (argc < 5 || argc > 8) usage();
    const char *mode = argv[1], *path = argv[2];
    size_t bufsize = argc > 5 ? (size_t) parse_size(argv[5]) : 64 * 1024;
    long long depth = argc > 7 ? parse_size(argv[7]) : 4;
    if (bufsize == 0 || bufsize > INT_MAX || depth < 1 || depth > 4096) usage();
    int read_send = strcmp(mode, "uring-read-send") == 0, send_zc = strcmp(mode, "uring-send-zc") == 0;
    int direct = strcmp(mode, "uring-direct") == 0, splice_mode = strcmp(mode, "uring-splice") == 0;
    int linked = strcmp(mode, "uring-splice-linked") == 0;
    if (!read_send && !send_zc && !direct && !splice_mode && !linked) usage();
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
    if (splice_mode) send_uring_splice(&ring, fd, sock, len);
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
