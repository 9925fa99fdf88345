package io.xferbench.twin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One {@link TwinReceive} JVM for one upload method, driven over its stdin and stdout: one receive per
 * {@link #arm()} and {@link #result()}, all in this JVM, as a long-running server receives.
 */
final class JavaReceiverProcess implements ReceiverSide, AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final Writer in;

    private JavaReceiverProcess(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
    }

    /** {@link TwinReceive}'s command line (its picocli spec reads it; TwinChildrenUsageTest parses it). */
    static String[] arguments(String method, Path target, int buffer, int uringDepth) {
        return new String[] {method, target.toString(), Integer.toString(buffer), "--io-uring-depth", Integer.toString(uringDepth)};
    }

    /** Starts the receiver and waits until it listens. */
    static JavaReceiverProcess start(ChildJvm jvm, String method, Path target, int buffer, int uringDepth) throws IOException {
        List<String> cmd = jvm.command(TwinReceive.class, arguments(method, target, buffer, uringDepth));
        JavaReceiverProcess p = new JavaReceiverProcess(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
        try {
            p.expect("twin-receive listening on ");
        } catch (IOException e) {
            p.process.destroyForcibly();
            throw e;
        }
        return p;
    }

    @Override
    public int arm() throws IOException {
        in.write("receive\n");
        in.flush();
        return Integer.parseInt(ResultFields.of(expect("twin-receive accepting port=")).get("port"));
    }

    @Override
    public Map<String, String> result() throws IOException {
        return ResultFields.of(expect("twin-receive method="));
    }

    private String expect(String prefix) throws IOException {
        String line = out.readLine();
        if (line == null || !line.startsWith(prefix)) {
            throw new IOException("TwinReceive: expected '" + prefix + "...', got: " + line);
        }
        return line;
    }

    /** Asks the receiver to quit (stdin EOF does too, should the write fail) and waits for it; a hung one is killed. */
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

    /** For the harness's shutdown hook: a kill of the harness must not leave this JVM behind. */
    void kill() {
        process.destroyForcibly();
    }
}
