package io.xferbench.twin;

import io.xferbench.core.process.ChildProcess;
import io.xferbench.core.process.ListeningLine;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * A long-lived child JVM of the harness driven line by line: commands on its stdin, one answer line each on its
 * stdout (stderr goes to ours); "quit" or stdin's end stops it.
 */
final class ChildConversation implements AutoCloseable {
    private final String name;
    private final ChildProcess child;

    private ChildConversation(String name, ChildProcess child) {
        this.name = name;
        this.child = child;
    }

    /** Starts {@code command}; {@code name} says who answered wrongly in errors. */
    static ChildConversation start(String name, List<String> command) throws IOException {
        return new ChildConversation(name, ChildProcess.start(name, command));
    }

    /** Sends one command line. */
    void say(String command) throws IOException {
        child.writeLine(command);
    }

    /** The next line, which must start with {@code prefix}. */
    String expect(String prefix) throws IOException {
        String line = child.readLine();
        if (line == null || !line.startsWith(prefix)) {
            throw new IOException(name + ": expected '" + prefix + "...', got: " + line);
        }
        return line;
    }

    /** Waits for the child's "NAME listening on HOST:PORT" line ({@link ListeningLine}). */
    void awaitListening(Duration timeout) throws IOException {
        ListeningLine.await(child, timeout);
    }

    /** Kills the child at once (it failed to start as expected). */
    void kill() {
        child.kill();
    }

    /** Asks the child to quit (stdin's end does too, should the write fail) and waits for it; a hung one is killed. */
    @Override
    public void close() throws InterruptedException {
        try {
            child.writeLine("quit");
        } catch (IOException ignored) {
            // it exited already
        } finally {
            child.closeInput();
            if (!child.waitFor(Duration.ofSeconds(30))) {
                child.kill();
            }
        }
    }
}
