/*
 * What every C twin shares (xfer_twin.c, xfer_uring_twin.c): argument parsing, the connection and the wire
 * (blocking TCP, TCP_NODELAY, an 8-byte big-endian body length, then the body), and the one result line
 * "xfer_twin mode=M bytes=N seconds=S mibs=X user=U sys=Y vcsw=V ivcsw=I" that TwinBench parses (a receiving mode
 * appends " crc32c=HEX").
 * Header-only (static functions) so that each twin stays one gcc call.
 */
#ifndef XFERBENCH_TWIN_COMMON_H
#define XFERBENCH_TWIN_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char *twin_name = "xfer_twin"; /* set by main: prefix of error messages */

static void die(const char *what) {
    fprintf(stderr, "%s: %s: %s\n", twin_name, what, strerror(errno));
    exit(1);
}

/* A byte count with an optional binary K/M/G suffix; exits 2 on anything else. */
static long long parse_size(const char *s) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || v < 0) {
        fprintf(stderr, "%s: not a size: %s\n", twin_name, s);
        exit(2);
    }
    switch (*end) {
    case 'k': case 'K': v <<= 10; break;
    case 'm': case 'M': v <<= 20; break;
    case 'g': case 'G': v <<= 30; break;
    case '\0': break;
    default: fprintf(stderr, "%s: not a size: %s\n", twin_name, s); exit(2);
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

/* Blocking TCP with TCP_NODELAY, as the xferbench server's sockets. */
static int connect_to(const char *host, const char *port) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "%s: %s:%s: %s\n", twin_name, host, port, gai_strerror(rc));
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

/* The drain's only protocol: the body length, 8 bytes big-endian, before the body. */
static void write_length_header(int sock, long long len) {
    unsigned char header[8];
    for (int i = 0; i < 8; i++) header[i] = (unsigned char) ((unsigned long long) len >> (56 - 8 * i));
    write_all(sock, (const char *) header, sizeof header);
}

/* The span of one send: wall time and the process's CPU and context switches (all threads, as the JVM's). */
struct twin_span {
    double t0;
    struct rusage ru0;
};

static struct twin_span span_start(void) {
    struct twin_span s;
    getrusage(RUSAGE_SELF, &s.ru0);
    s.t0 = now();
    return s;
}

/* The result line; extra (e.g. " crc32c=..."), when not empty, is appended to it. */
static void span_report_with(const struct twin_span *s, const char *mode, long long len, const char *extra) {
    double seconds = now() - s->t0;
    struct rusage ru1;
    getrusage(RUSAGE_SELF, &ru1);
    double user = (ru1.ru_utime.tv_sec - s->ru0.ru_utime.tv_sec) + (ru1.ru_utime.tv_usec - s->ru0.ru_utime.tv_usec) / 1e6;
    double sys = (ru1.ru_stime.tv_sec - s->ru0.ru_stime.tv_sec) + (ru1.ru_stime.tv_usec - s->ru0.ru_stime.tv_usec) / 1e6;
    printf("xfer_twin mode=%s bytes=%lld seconds=%.6f mibs=%.1f user=%.6f sys=%.6f vcsw=%ld ivcsw=%ld%s\n", mode, len, seconds,
           len / 1048576.0 / seconds, user, sys, ru1.ru_nvcsw - s->ru0.ru_nvcsw, ru1.ru_nivcsw - s->ru0.ru_nivcsw, extra);
}

static void span_report(const struct twin_span *s, const char *mode, long long len) {
    span_report_with(s, mode, len, "");
}

#endif
