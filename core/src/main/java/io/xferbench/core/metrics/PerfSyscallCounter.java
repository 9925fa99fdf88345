package io.xferbench.core.metrics;

import io.xferbench.core.method.Availability;
import io.xferbench.core.process.ChildCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Counts a process's syscalls with {@code perf stat} on kernel tracepoints, attached by pid. perf starts
 * with its events disabled ({@code -D -1}) and is switched on and off through its stdin; each switch
 * waits for perf's ack, so the window counts exactly what happens between {@link #enable()} and
 * {@link #disable()}. Threads the process creates while attached are counted too (perf inherits counters
 * to new threads). Tracepoints count in the kernel: no sampling, no ptrace, no timing distortion worth
 * measuring (unlike {@code strace -c}).
 */
public final class PerfSyscallCounter implements AutoCloseable {
    /** Syscalls broken out by name; the rest appear as "other". */
    public static final List<String> DEFAULT_SYSCALLS = List.of(
            "read", "write", "pread64", "pwrite64", "preadv2", "readv", "writev", "sendfile64", "splice", "tee", "vmsplice",
            "copy_file_range", "mmap", "munmap", "madvise", "mincore", "fadvise64", "io_uring_enter", "io_uring_setup",
            "epoll_wait", "epoll_pwait", "epoll_pwait2", "epoll_ctl", "poll", "ppoll", "futex", "sendto", "recvfrom", "sendmsg",
            "recvmsg", "accept", "accept4", "openat", "close", "lseek", "newfstatat", "fstat", "fsync", "fdatasync",
            "pipe2", "fcntl", "ioctl", "getrusage", "sched_yield", "clock_nanosleep", "statx", "ftruncate", "rename");

    private static final long ACK_TIMEOUT_MS = 10_000;
    private static volatile Availability availability;

    private final Process perf;
    private final OutputStream control;
    private final InputStream ack;
    private final CompletableFuture<String> output;

    private PerfSyscallCounter(Process perf) {
        this.perf = perf;
        this.control = perf.getOutputStream();
        this.ack = perf.getInputStream();
        // perf writes its counts (and any complaint) to stderr; read it all the time so perf can never block on it.
        this.output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(perf.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(perf output unreadable: " + e.getMessage() + ")";
            }
        }, runnable -> Thread.ofVirtual().name("perf-output").start(runnable));
    }

    /** Whether perf can count syscall tracepoints here; the reason if not (not root, paranoid, no perf). */
    public static Availability availability() {
        Availability a = availability;
        if (a == null) {
            availability = a = probe();
        }
        return a;
    }

    private static Availability probe() {
        try {
            Process p = new ProcessBuilder("perf", "stat", "-x,", "-e", "raw_syscalls:sys_enter", "--", "true")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Availability.unavailable("perf stat did not finish within 30 s");
            }
            if (p.exitValue() != 0 || !out.contains("raw_syscalls:sys_enter") || out.contains("<not supported>")) {
                String first = out.lines().filter(l -> !l.isBlank()).findFirst().orElse("exit " + p.exitValue());
                return Availability.unavailable("perf cannot count syscall tracepoints (needs root or kernel.perf_event_paranoid <= -1 and a readable tracefs): " + first.strip());
            }
            return Availability.AVAILABLE;
        } catch (IOException e) {
            return Availability.unavailable("perf is not installed (apt-get install linux-perf): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Availability.unavailable("interrupted while probing perf");
        }
    }

    /** The names among {@code wanted} that this kernel has tracepoints for (perf refuses unknown events). */
    public static List<String> supported(List<String> wanted) {
        Path events = tracefsEvents();
        if (events == null) {
            return wanted;
        }
        List<String> out = new ArrayList<>();
        for (String name : wanted) {
            if (Files.isDirectory(events.resolve("syscalls").resolve("sys_enter_" + name))) {
                out.add(name);
            }
        }
        return out;
    }

    private static Path tracefsEvents() {
        for (String p : List.of("/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events")) {
            Path path = Path.of(p);
            if (Files.isDirectory(path.resolve("syscalls"))) {
                return path;
            }
        }
        return null;
    }

    /**
     * Attaches to {@code pid} with events disabled and returns once perf has its events open on every thread (again
     * when a thread exited while perf attached, for up to {@link AttachRetry#BUDGET}). perf is driven through its
     * standard streams: commands on stdin, acks on stdout, counts on stderr ({@code --control fd:0,1}), so no file or
     * fifo is ever created and nothing is left behind, however this JVM ends (perf exits when its target does).
     */
    public static PerfSyscallCounter attach(long pid) throws IOException {
        return attach(pid, DEFAULT_SYSCALLS);
    }

    public static PerfSyscallCounter attach(long pid, List<String> syscalls) throws IOException {
        List<String> events = events(syscalls);
        // One descriptor per event per thread: under a low hard limit perf is given a higher one of its own, or the
        // window says why it cannot count.
        List<String> cmd = new ArrayList<>(PerfDescriptorLimit.wrapper(pid, events.size()));
        cmd.addAll(List.of("perf", "stat", "-x,", "--no-big-num", "-D", "-1", "--control", "fd:0,1",
                "-e", String.join(",", events), "-p", Long.toString(pid)));
        // perf -p opens its events thread by thread and gives up when one exits on the way (ESRCH): an io-wq worker
        // retiring, a short-lived JVM thread. The next try lists the threads again; AttachRetry says for how long.
        return AttachRetry.standard().run(() -> {
            PerfSyscallCounter counter = new PerfSyscallCounter(new ProcessBuilder(cmd).start());
            try {
                counter.awaitAttached();
                return counter;
            } catch (IOException e) {
                counter.close();
                throw e;
            }
        });
    }

    /**
     * Counts every process of a cgroup ({@code cgroup}: its path under the hierarchy perf uses, see {@link PerfCgroup})
     * on every CPU, with events disabled until {@link #enable()}. Per CPU, not per thread: the descriptors perf opens
     * do not grow with the threads of the processes (per thread, 500 server threads × 50 syscall events exhaust them).
     */
    public static PerfSyscallCounter attachCgroup(String cgroup, List<String> syscalls) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("perf", "stat", "-x,", "--no-big-num", "-D", "-1", "--control", "fd:0,1", "-a"));
        for (String event : events(syscalls)) {
            cmd.addAll(List.of("-e", event, "-G", cgroup));
        }
        // perf -a has no target to outlive: it would count until killed, so it dies with this JVM.
        return new PerfSyscallCounter(new ProcessBuilder(
                ChildCommand.dyingWithParent(ChildCommand.DeathSignal.KILL).of(cmd)).start());
    }

    private static List<String> events(List<String> syscalls) throws IOException {
        Availability a = availability();
        if (!a.isAvailable()) {
            throw new IOException(a.unavailableReason());
        }
        List<String> events = new ArrayList<>();
        events.add(PerfStatParser.TOTAL_EVENT);
        for (String s : supported(syscalls)) {
            events.add(PerfStatParser.SYSCALL_PREFIX + s);
        }
        if (tracefsEvents() == null || Files.isDirectory(tracefsEvents().resolve("io_uring/io_uring_submit_req"))) {
            events.add(PerfStatParser.IO_URING_SUBMIT_EVENT);
        }
        events.add(PerfStatParser.CONTEXT_SWITCH_EVENT);
        return events;
    }

    public void enable() throws IOException {
        command("enable");
    }

    public void disable() throws IOException {
        command("disable");
    }

    /**
     * Returns once perf has opened its events on every thread of the target (it answers commands only after
     * that), so threads started afterwards inherit the counters. Needs perf 5.12+ ({@code ping}); counts nothing.
     */
    public void awaitAttached() throws IOException {
        command("ping");
    }

    private void command(String what) throws IOException {
        control.write((what + "\n").getBytes(StandardCharsets.US_ASCII));
        control.flush();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ACK_TIMEOUT_MS);
        // perf answers "ack\n" plus the string's NUL (it writes sizeof("ack\n") = 5 bytes) once the events are
        // really switched. Take whatever is there in one read and ignore NULs.
        StringBuilder answer = new StringBuilder();
        while (answer.length() < 4) {
            int available = ack.available();
            if (available > 0) {
                for (byte b : ack.readNBytes(available)) {
                    if (b != 0) {
                        answer.append((char) b);
                    }
                }
                continue;
            }
            if (!perf.isAlive() || System.nanoTime() > deadline) {
                throw new IOException("perf did not acknowledge '" + what + "' (" + (perf.isAlive() ? "timeout" : "perf exited") + "): " + log());
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for perf", e);
            }
        }
        if (!answer.toString().equals("ack\n")) {
            throw new IOException("unexpected answer from perf to '" + what + "': " + answer);
        }
    }

    /** Stops perf and returns what was counted while enabled. */
    public SyscallCounts stop() throws IOException {
        try {
            // SIGINT makes perf stat print its counts and exit.
            new ProcessBuilder("kill", "-INT", Long.toString(perf.pid())).start().waitFor(5, TimeUnit.SECONDS);
            if (!perf.waitFor(30, TimeUnit.SECONDS)) {
                perf.destroyForcibly();
                throw new IOException("perf did not exit after SIGINT");
            }
            return PerfStatParser.parse(output.get(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping perf", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("perf's counts could not be read: " + e, e);
        } finally {
            close();
        }
    }

    /** What perf said so far, once it has exited (its stderr); used in error messages. */
    private String log() {
        if (perf.isAlive()) {
            return "(perf still running)";
        }
        try {
            // One line: the reason ends up in a report's field and a log line (perf's errors span several).
            return String.join(" ", output.get(1, TimeUnit.SECONDS).strip().split("\\s*\\R\\s*"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        } catch (ExecutionException | TimeoutException e) {
            return "(no perf output)";
        }
    }

    /** Kills perf if it still runs and waits for it, so no perf process outlives its counter. */
    @Override
    public void close() {
        if (perf.isAlive()) {
            perf.destroyForcibly();
        }
        try {
            control.close();
        } catch (IOException ignored) {
            // perf is gone; its stdin with it.
        }
        try {
            perf.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The perf process (tests check it ends with the counter). */
    public ProcessHandle process() {
        return perf.toHandle();
    }
}
