/*
 * xfer_twin: the minimal C twin of each xferbench download method. It makes the same syscalls as the
 * Java path it mirrors, and nothing else, so "Java / C twin" is the cost of getting there from Java.
 *
 *   xfer_twin MODE FILE HOST PORT [bufsize] [length]
 *
 * Connects (blocking TCP, TCP_NODELAY, as the xferbench server's sockets), writes an 8-byte big-endian body
 * length (the drain's only protocol), sends bytes [0, length) of FILE (default: all of it), closes, and
 * prints one line: "xfer_twin mode=M bytes=N seconds=S mibs=X user=U sys=Y vcsw=V ivcsw=I" (time from connect
 * to close; user/sys CPU seconds and context switches of the process over the same span, from getrusage).
 *
 * MODE                 syscalls per chunk                       Java twin(s)
 *   readwrite          read(2) into a malloc'd buffer + write(2) stream, channel-heap
 *   preadwrite         pread64(2) into a page-aligned buffer + write(2)   channel-direct
 *   sendfile           sendfile64(2) loop (blocking socket)     transfer-to, epoll-sendfile
 *   mmap               mmap(2) windows <= 1 GiB, write(2) from the mapping, munmap(2)   mmap
 *   splice             splice(2) file -> pipe, splice(2) pipe -> socket (SPLICE_F_MOVE, default pipe)   none (reference;
 *                      io-uring's twin is uring-splice in xfer_uring_twin.c)
 *   odirect            O_DIRECT pread64(2) of whole aligned blocks + write(2)   direct-io, direct-io-jdk
 *   dontcache          preadv2(2) with RWF_DONTCACHE (Linux 6.14) into a page-aligned buffer + write(2)   dontcache
 *                      (fio cannot be its reference: fio 3.33's uncached=1 sets 0x40, RWF_ATOMIC here)
 *
 * bufsize (default 64 KiB, the same default as TransferOptions) is the user buffer of readwrite,
 * preadwrite, odirect and dontcache; the others ignore it. Sizes take K/M/G suffixes (binary). gcc -O2, no deps.
 * The io_uring methods' twins are xfer_uring_twin.c (liburing).
 */
#include "twin_common.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>

#define MMAP_WINDOW (1L << 30)         /* MmapSender.DEFAULT_WINDOW */
#define DIRECT_BUF_ALIGN 4096          /* DirectIoSender aligns its buffer to max(block, page) */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080       /* linux/fs.h since 6.14; glibc's headers may predate it */
#endif

static void usage(void) {
    fprintf(stderr, "usage: xfer_twin readwrite|preadwrite|sendfile|mmap|splice|odirect|dontcache FILE HOST PORT [bufsize] [length]\n");
    exit(2);
}

static void send_readwrite(int fd, int sock, long long len, size_t bufsize) {
    char *buf = malloc(bufsize);
    if (!buf) die("malloc");
    while (len > 0) {
        size_t want = len < (long long) bufsize ? (size_t) len : bufsize;
        ssize_t n = read(fd, buf, want);
        if (n < 0) { if (errno == EINTR) continue; die("read"); }
        if (n == 0) { errno = 0; die("read: file ended early"); }
        write_all(sock, buf, (size_t) n);
        len -= n;
    }
    free(buf);
}

static void send_preadwrite(int fd, int sock, long long len, size_t bufsize) {
    char *buf = aligned_alloc((size_t) sysconf(_SC_PAGESIZE), bufsize);
    if (!buf) die("aligned_alloc");
    off_t off = 0;
    while (off < len) {
        size_t want = len - off < (long long) bufsize ? (size_t) (len - off) : bufsize;
        ssize_t n = pread(fd, buf, want, off);
        if (n < 0) { if (errno == EINTR) continue; die("pread"); }
        if (n == 0) { errno = 0; die("pread: file ended early"); }
        write_all(sock, buf, (size_t) n);
        off += n;
    }
    free(buf);
}

/* DontCacheSender: preadwrite's loop with preadv2(RWF_DONTCACHE); EOPNOTSUPP is an old kernel or file system. */
static void send_dontcache(int fd, int sock, long long len, size_t bufsize) {
    char *buf = aligned_alloc((size_t) sysconf(_SC_PAGESIZE), bufsize);
    if (!buf) die("aligned_alloc");
    off_t off = 0;
    while (off < len) {
        struct iovec iov = { buf, len - off < (long long) bufsize ? (size_t) (len - off) : bufsize };
        ssize_t n = preadv2(fd, &iov, 1, off, RWF_DONTCACHE);
        if (n < 0) {
            if (errno == EINTR) continue;
            die(errno == EOPNOTSUPP ? "preadv2(RWF_DONTCACHE) (kernel before 6.14, or a file system without it)" : "preadv2(RWF_DONTCACHE)");
        }
        if (n == 0) { errno = 0; die("preadv2: file ended early"); }
        write_all(sock, buf, (size_t) n);
        off += n;
    }
    free(buf);
}

static void send_sendfile(int fd, int sock, long long len) {
    off_t off = 0;
    while (off < len) {
        long long rem = len - off;
        ssize_t n = sendfile(sock, fd, &off, rem > INT_MAX ? INT_MAX : (size_t) rem);
        if (n < 0) { if (errno == EINTR) continue; die("sendfile"); }
        if (n == 0) { errno = 0; die("sendfile: file ended early"); }
    }
}

static void send_mmap(int fd, int sock, long long len) {
    for (long long off = 0; off < len; off += MMAP_WINDOW) {
        size_t n = len - off < MMAP_WINDOW ? (size_t) (len - off) : (size_t) MMAP_WINDOW;
        char *p = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, off);
        if (p == MAP_FAILED) die("mmap");
        write_all(sock, p, n);
        if (munmap(p, n) < 0) die("munmap");
    }
}

static void send_splice(int fd, int sock, long long len) {
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) < 0) die("pipe2");
    loff_t off = 0;
    while (off < len) {
        long long rem = len - off;
        ssize_t in = splice(fd, &off, pipefd[1], NULL, rem > INT_MAX ? INT_MAX : (size_t) rem, SPLICE_F_MOVE);
        if (in < 0) { if (errno == EINTR) continue; die("splice(file -> pipe)"); }
        if (in == 0) { errno = 0; die("splice: file ended early"); }
        while (in > 0) {
            ssize_t out = splice(pipefd[0], NULL, sock, NULL, (size_t) in, SPLICE_F_MOVE);
            if (out < 0) { if (errno == EINTR) continue; die("splice(pipe -> socket)"); }
            in -= out;
        }
    }
    close(pipefd[0]);
    close(pipefd[1]);
}

static void send_odirect(int fd, int sock, long long len, size_t bufsize) {
    /* Whole aligned blocks, like AlignedBlockCopy: read the full buffer, send only what is in range. */
    size_t buflen = bufsize / DIRECT_BUF_ALIGN * DIRECT_BUF_ALIGN;
    if (buflen == 0) buflen = DIRECT_BUF_ALIGN;
    char *buf = aligned_alloc(DIRECT_BUF_ALIGN, buflen);
    if (!buf) die("aligned_alloc");
    off_t off = 0;
    while (off < len) {
        ssize_t n = pread(fd, buf, buflen, off);
        if (n < 0) { if (errno == EINTR) continue; die("pread(O_DIRECT)"); }
        if (n == 0) { errno = 0; die("pread: file ended early"); }
        size_t send = len - off < n ? (size_t) (len - off) : (size_t) n;
        write_all(sock, buf, send);
        off += (off_t) send;
    }
    free(buf);
}

int main(int argc, char **argv) {
    if (argc < 5 || argc > 7) usage();
    const char *mode = argv[1], *path = argv[2];
    size_t bufsize = argc > 5 ? (size_t) parse_size(argv[5]) : 64 * 1024;
    if (bufsize == 0) usage();
    int odirect = strcmp(mode, "odirect") == 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | (odirect ? O_DIRECT : 0));
    if (fd < 0) die(path);
    struct stat st;
    if (fstat(fd, &st) < 0) die("fstat");
    long long len = argc > 6 ? parse_size(argv[6]) : (long long) st.st_size;
    if (len > st.st_size) { fprintf(stderr, "xfer_twin: length %lld > file size %lld\n", len, (long long) st.st_size); return 2; }

    struct twin_span span = span_start();
    int sock = connect_to(argv[3], argv[4]);
    write_length_header(sock, len);

    if (strcmp(mode, "readwrite") == 0) send_readwrite(fd, sock, len, bufsize);
    else if (strcmp(mode, "preadwrite") == 0) send_preadwrite(fd, sock, len, bufsize);
    else if (strcmp(mode, "sendfile") == 0) send_sendfile(fd, sock, len);
    else if (strcmp(mode, "mmap") == 0) send_mmap(fd, sock, len);
    else if (strcmp(mode, "splice") == 0) send_splice(fd, sock, len);
    else if (odirect) send_odirect(fd, sock, len, bufsize);
    else if (strcmp(mode, "dontcache") == 0) send_dontcache(fd, sock, len, bufsize);
    else usage();

    if (close(sock) < 0) die("close(socket)");
    span_report(&span, mode, len);
    close(fd);
    return 0;
}
