package io.xferbench.core.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.InterruptedIOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A started child process talked to in lines: lines to its stdin, its stdout read line by line (its stderr goes to
 * ours). Its stdout is read on a daemon thread of its own from the start, so the child never blocks on a full pipe
 * while its parent waits for something else; the lines queue until read, or are dropped after {@link #discardOutput}.
 */
public final class ChildProcess implements AutoCloseable {
    /** Queued once stdout has ended (by identity): every later read sees the end too. */
    private static final String END = new String("end of stdout");
    private static final Duration KILL_WAIT = Duration.ofSeconds(30);

    private final String name;
    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private volatile boolean discarding;

    private ChildProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("xferbench-" + name + "-stdout").start(this::readStdout);
    }

    /** Starts {@code command} (see {@link ChildCommand}); {@code name} names it in errors and its reader thread. */
    public static ChildProcess start(String name, List<String> command) throws IOException {
        return new ChildProcess(name, new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    private void readStdout() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!discarding) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            // the child was stopped: its output ends here
        } finally {
            lines.add(END);
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
            return null;
        }
        return line;
    }

    /** From now on the child's stdout is read and dropped: lines nobody reads must not pile up. */
    public void discardOutput() {
        discarding = true;
        lines.removeIf(l -> l != END);
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

    /** SIGTERM, so the child's own shutdown hooks run; SIGKILL if it has not exited within {@code grace}. */
    public void terminate(Duration grace) throws InterruptedException {
        process.destroy();
        boolean exited = false;
        try {
            exited = waitFor(grace);
        } finally {
            if (!exited) {
                process.destroyForcibly(); // also when the wait was interrupted: the child must not outlive us
            }
        }
    }

    /** Kills the child and waits for it (up to 30 s): a cgroup, say, can be removed only once it has no members. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            waitFor(KILL_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
