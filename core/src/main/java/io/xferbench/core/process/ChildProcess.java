package io.xferbench.core.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.InterruptedIOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A started child process talked to in lines: lines to its stdin, its stdout read line by line (its stderr is copied
 * to ours, its last lines kept for error messages). Both are read on daemon threads of their own from the start, so
 * the child never blocks on a full pipe while its parent waits for something else; stdout's lines queue until read,
 * or go elsewhere after {@link #forwardOutput} / {@link #discardOutput}.
 */
public final class ChildProcess implements AutoCloseable {
    /** Queued once stdout has ended (by identity): every later read sees the end too. */
    private static final String END = new String("end of stdout");
    private static final Duration KILL_WAIT = Duration.ofSeconds(30);
    private static final int STDERR_TAIL_LINES = 20;
    private static final long STDERR_END_WAIT_MILLIS = 1000;

    private final String name;
    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    /** Where stdout's lines go once the reader no longer queues them; null while they queue. Guarded by this. */
    private Consumer<String> sink;
    /** Whether a sink has failed already: told once. Guarded by this. */
    private boolean sinkFailed;
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private final Thread stderrCopier;
    /** Whether the end of stdout has waited for the stderr copier already. */
    private volatile boolean stderrAwaited;

    private ChildProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("xferbench-" + name + "-stdout").start(this::readStdout);
        this.stderrCopier = Thread.ofPlatform().daemon().name("xferbench-" + name + "-stderr").start(this::copyStderr);
    }

    /** Starts {@code command} (see {@link ChildCommand}); {@code name} names it in errors and its reader threads. */
    public static ChildProcess start(String name, List<String> command) throws IOException {
        return new ChildProcess(name, new ProcessBuilder(command).start());
    }

    /**
     * Talks to {@code process}, started elsewhere (by a launcher that also tracks it for stopping). Its stderr, if
     * not redirected, is copied to ours as for {@link #start}.
     */
    public static ChildProcess of(String name, Process process) {
        return new ChildProcess(name, process);
    }

    private void readStdout() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                deliver(line);
            }
        } catch (IOException e) {
            // the child was stopped: its output ends here
        } finally {
            lines.add(END);
        }
    }

    private synchronized void deliver(String line) {
        if (sink == null) {
            lines.add(line);
        } else {
            pass(sink, line);
        }
    }

    /** Gives {@code line} to {@code to}; a sink that fails must not stop the draining, or the child blocks on the pipe. */
    private void pass(Consumer<String> to, String line) {
        try {
            to.accept(line);
        } catch (RuntimeException e) {
            if (!sinkFailed) {
                sinkFailed = true;
                System.err.println("xferbench: the consumer of " + name + "'s output failed (" + e + "); its output is still drained");
            }
        }
    }

    private void copyStderr() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                System.err.println(line);
                synchronized (stderrTail) {
                    stderrTail.addLast(line);
                    if (stderrTail.size() > STDERR_TAIL_LINES) {
                        stderrTail.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            // the child was stopped: its stderr ends here
        }
    }

    /** The name given at start, for messages. */
    public String name() {
        return name;
    }

    /**
     * The last lines (up to 20) the child wrote to stderr, for an error message. Once the child has exited, waits
     * briefly for its last lines to be read.
     */
    public List<String> stderrTail() throws InterruptedException {
        if (!process.isAlive()) {
            stderrCopier.join(STDERR_END_WAIT_MILLIS);
        }
        synchronized (stderrTail) {
            return List.copyOf(stderrTail);
        }
    }

    /** The next line of the child's stdout, or null once it has closed it (exited). */
    public String readLine() throws IOException {
        try {
            return ended(lines.take());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + name);
        }
    }

    /** The same, waiting at most {@code timeout} for it. */
    public String readLine(Duration timeout) throws IOException, TimeoutException {
        String line;
        try {
            line = lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + name);
        }
        if (line == null) {
            throw new TimeoutException("no line from " + name + " in " + timeout.toSeconds() + " s");
        }
        return ended(line);
    }

    private String ended(String line) {
        if (line == END) {
            lines.add(END);
            awaitStderrCopiedOnce();
            return null;
        }
        return line;
    }

    /**
     * A caller that learns of the child's end may exit at once: its last stderr lines (why it died, often) must be
     * copied first. Waited for once only, as a child may close stdout and live on.
     */
    private void awaitStderrCopiedOnce() {
        if (!stderrAwaited) {
            stderrAwaited = true;
            awaitStderrCopied();
        }
    }

    /** Waits briefly for the stderr copier to reach the end of the exited child's stderr. */
    private void awaitStderrCopied() {
        try {
            stderrCopier.join(STDERR_END_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** From now on the child's stdout lines, those queued first, go to {@code to} (on the reader thread) instead. */
    public synchronized void forwardOutput(Consumer<String> to) {
        List<String> queued = new ArrayList<>();
        lines.drainTo(queued);
        for (String line : queued) {
            if (line == END) {
                lines.add(END);
            } else {
                pass(to, line);
            }
        }
        sink = to;
    }

    /** From now on the child's stdout is read and dropped: lines nobody reads must not pile up. */
    public void discardOutput() {
        forwardOutput(line -> { });
    }

    /** Sends {@code line} to the child's stdin at once; fails once the child has closed it (exited). */
    public void writeLine(String line) throws IOException {
        in.write(line + "\n");
        in.flush();
    }

    /** Ends the child's stdin: it reads end of file. */
    public void closeInput() {
        try {
            in.close();
        } catch (IOException ignored) {
            // it exited already
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the child to exit and returns its status. */
    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /** Waits at most {@code timeout} for the child to exit; true if it has. */
    public boolean waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Kills the child (SIGKILL) at once, without waiting. */
    public void kill() {
        process.destroyForcibly();
    }

    /**
     * SIGTERM, so the child's own shutdown hooks run; SIGKILL if it has not exited within {@code grace}. Once it
     * has exited, waits briefly for its last stderr lines to be copied.
     */
    public void terminate(Duration grace) throws InterruptedException {
        // through the handle: Process.destroy() would also close our ends of its pipes, losing its last words
        process.toHandle().destroy();
        boolean exited = false;
        try {
            exited = waitFor(grace);
        } finally {
            if (!exited) {
                process.destroyForcibly(); // also when the wait was interrupted: the child must not outlive us
            }
        }
        awaitStderrCopied();
    }

    /**
     * Kills the child and waits for it (up to 30 s): a cgroup, say, can be removed only once it has no members. Then
     * waits briefly for its last stderr lines to be copied, as the caller may exit next, and closes its pipes.
     */
    @Override
    public void close() {
        // through the handle: Process.destroyForcibly() also closes our ends of its pipes, unread lines and all
        process.toHandle().destroyForcibly();
        try {
            if (waitFor(KILL_WAIT)) {
                awaitStderrCopied();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            process.destroyForcibly();
        }
    }
}
