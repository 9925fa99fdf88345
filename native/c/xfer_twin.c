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
 *   splice             splice(2) file -> pipe, splice(2) pipe -> socket (SPLICE_F_MOVE, default pipe)   io-uring
 *   odirect            O_DIRECT pread64(2) of whole aligned blocks + write(2)   direct-io, direct-io-jdk
 *
 * bufsize (default 64 KiB, the same default as TransferOptions) is the user buffer of readwrite,
 * preadwrite and odirect; the others ignore it. Sizes take K/M/G suffixes (binary). gcc -O2, no deps.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MMAP_WINDOW (1L << 30)         /* MmapSender.DEFAULT_WINDOW */
#define DIRECT_BUF_ALIGN 4096          /* DirectIoSender aligns its buffer to max(block, page) */

static void die(const char *what) {
    fprintf(stderr, "xfer_twin: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void usage(void) {
    fprintf(stderr, "usage: xfer_twin readwrite|preadwrite|sendfile|mmap|splice|odirect FILE HOST PORT [bufsize] [length]\n");
    exit(2);
}

static long long parse_size(const char *s) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || v < 0) {
        fprintf(stderr, "xfer_twin: not a size: %s\n", s);
        exit(2);
    }
    switch (*end) {
    case 'k': case 'K': v <<= 10; break;
    case 'm': case 'M': v <<= 20; break;
    case 'g': case 'G': v <<= 30; break;
    case '\0': break;
    default: fprintf(stderr, "xfer_twin: not a size: %s\n", s); exit(2);
    }
    return v;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void write_all(int sock, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(sock, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            die("write(socket)");
        }
        p += w;
        n -= (size_t) w;
    }
}

static int connect_to(const char *host, const char *port) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "xfer_twin: %s:%s: %s\n", host, port, gai_strerror(rc));
        exit(1);
    }
    int sock = -1;
    for (ai = res; ai; ai = ai->ai_next) {
        sock = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (sock < 0) continue;
        if (connect(sock, ai->ai_addr, ai->ai_addrlen) == 0) break;
        close(sock);
        sock = -1;
    }
    freeaddrinfo(res);
    if (sock < 0) die("connect");
    int one = 1;
    if (setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) die("setsockopt(TCP_NODELAY)");
    return sock;
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

    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    double t0 = now();
    int sock = connect_to(argv[3], argv[4]);
    unsigned char header[8];
    for (int i = 0; i < 8; i++) header[i] = (unsigned char) ((unsigned long long) len >> (56 - 8 * i));
    write_all(sock, (const char *) header, sizeof header);

    if (strcmp(mode, "readwrite") == 0) send_readwrite(fd, sock, len, bufsize);
    else if (strcmp(mode, "preadwrite") == 0) send_preadwrite(fd, sock, len, bufsize);
    else if (strcmp(mode, "sendfile") == 0) send_sendfile(fd, sock, len);
    else if (strcmp(mode, "mmap") == 0) send_mmap(fd, sock, len);
    else if (strcmp(mode, "splice") == 0) send_splice(fd, sock, len);
    else if (odirect) send_odirect(fd, sock, len, bufsize);
    else usage();

    if (close(sock) < 0) die("close(socket)");
    double seconds = now() - t0;
    getrusage(RUSAGE_SELF, &ru1);
    close(fd);
    double user = (ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) + (ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) / 1e6;
    double sys = (ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) + (ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
    printf("xfer_twin mode=%s bytes=%lld seconds=%.6f mibs=%.1f user=%.6f sys=%.6f vcsw=%ld ivcsw=%ld\n", mode, len, seconds,
           len / 1048576.0 / seconds, user, sys, ru1.ru_nvcsw - ru0.ru_nvcsw, ru1.ru_nivcsw - ru0.ru_nivcsw);
    return 0;
}
