package io.xferbench.twin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A long-lived child JVM of the harness driven line by line: commands on its stdin, one answer line each on its
 * stdout (stderr goes to ours); "quit" or stdin's end stops it.
 */
final class ChildConversation implements AutoCloseable {
    private final String name;
    private final Process process;
    private final BufferedReader out;
    private final Writer in;

    private ChildConversation(String name, Process process) {
        this.name = name;
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
    }

    /** Starts {@code command}; {@code name} says who answered wrongly in errors. */
    static ChildConversation start(String name, List<String> command) throws IOException {
        return new ChildConversation(name, new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    /** Sends one command line. */
    void say(String command) throws IOException {
        in.write(command + "\n");
        in.flush();
    }

    /** The next line, which must start with {@code prefix}. */
    String expect(String prefix) throws IOException {
        String line = out.readLine();
        if (line == null || !line.startsWith(prefix)) {
            throw new IOException(name + ": expected '" + prefix + "...', got: " + line);
        }
        return line;
    }

    /** Kills the child at once (it failed to start as expected). */
    void kill() {
        process.destroyForcibly();
    }

    /** Asks the child to quit (stdin's end does too, should the write fail) and waits for it; a hung one is killed. */
    @Override
    public void close() throws IOException, InterruptedException {
        try (out; in) {
            in.write("quit\n");
            in.flush();
        } catch (IOException ignored) {
            // it exited already
        } finally {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
