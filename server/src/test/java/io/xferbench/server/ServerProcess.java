package io.xferbench.server;

import io.xferbench.core.netty.NettyNativeWorkdir;
import io.xferbench.nativeio.JvmFlags;
import io.xferbench.core.tls.SelfSignedCertificate;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real server (or proxy) process for the tests that need one (signals, kill -9, resource limits, a small heap): started from
 * the test class path, its port read from its "listening on" line, its later log kept for assertions.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("xferbench-(?:server|proxy) listening on (\\S+):(\\d+)");

    public final Process process;
    public final int port;
    /** Every line the server logged after it started listening. */
    final List<String> log = new CopyOnWriteArrayList<>();
    /** Every line it printed before its listening line (warnings about its options among them). */
    public final List<String> startup;
    /** Its "listening on" line, whole (a server's ends with its TLS certificate: {@code tls-cert=PATH}). */
    public final String listening;

    private ServerProcess(Process process, int port, List<String> startup, String listening) {
        this.process = process;
        this.port = port;
        this.startup = List.copyOf(startup);
        this.listening = listening;
    }

    /**
     * @param wrapper  a command the JVM runs under (e.g. {@code prlimit --nofile=300:300}), or empty
     * @param jvmArgs  extra JVM options (e.g. {@code -XX:MaxDirectMemorySize=32m})
     * @param args     server options after {@code --data-dir DIR --port 0}
     */
    public static ServerProcess start(List<String> wrapper, List<String> jvmArgs, Path dataDir, String... args) throws IOException {
        List<String> serverArgs = new ArrayList<>(List.of("--data-dir", dataDir.toString()));
        serverArgs.addAll(List.of(args));
        return launch(wrapper, jvmArgs, serverArgs);
    }

    /**
     * A proxy process ({@code --proxy-to HOST:PORT --port 0}).
     *
     * @param args  proxy options after {@code --port 0 --proxy-to HOST:PORT}
     */
    public static ServerProcess startProxy(List<String> jvmArgs, String upstream, String... args) throws IOException {
        List<String> proxyArgs = new ArrayList<>(List.of("--proxy-to", upstream));
        proxyArgs.addAll(List.of(args));
        return launch(List.of(), jvmArgs, proxyArgs);
    }

    /** What a server or proxy process that was expected to exit (a usage error) printed, and its status. */
    public record Exited(int status, List<String> output) {
    }

    /**
     * Runs {@code ServerMain} with these options (after {@code --port 0}) to its exit, which must come within 20 s (a
     * usage error prints one line, far less than a pipe holds, so the process never waits for this reader).
     */
    public static Exited runToExit(List<String> jvmArgs, String... args) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command(List.of(), jvmArgs, List.of(args))).redirectErrorStream(true).start();
        if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new IOException("the server did not exit within 20 s");
        }
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            return new Exited(p.exitValue(), out.lines().toList());
        }
    }

    private static List<String> command(List<String> wrapper, List<String> jvmArgs, List<String> args) {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(jvmArgs);
        cmd.addAll(JvmFlags.required());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ServerMain.class.getName(), "--port", "0"));
        cmd.addAll(args);
        return cmd;
    }

    private static ServerProcess launch(List<String> wrapper, List<String> jvmArgs, List<String> args) throws IOException {
        Process p = new ProcessBuilder(command(wrapper, jvmArgs, args)).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        List<String> early = new ArrayList<>();
        for (String line; (line = out.readLine()) != null; ) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                ServerProcess s = new ServerProcess(p, Integer.parseInt(m.group(2)), early, line);
                // Its own thread, not the common pool: on 2 cores that pool has one thread, which the drain would keep.
                Thread drain = new Thread(() -> out.lines().forEach(s.log::add), "server-log");
                drain.setDaemon(true);
                drain.start();
                return s;
            }
            early.add(line);
        }
        p.destroyForcibly();
        throw new IOException("the server exited without listening: " + early);
    }

    public static ServerProcess start(Path dataDir, String... args) throws IOException {
        return start(List.of(), List.of(), dataDir, args);
    }

    /** Kills the process; the Netty workdir it may leave (killed, no hook ran) is swept like any dead process's. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly().waitFor();
        try {
            NettyNativeWorkdir.sweep(NettyNativeWorkdir.parent());
            SelfSignedCertificate.sweep(Path.of(System.getProperty("java.io.tmpdir"))); // its certificate, killed before its hook
        } catch (IOException e) {
            // Another JVM sweeping at once: the next claim removes what is left.
        }
    }
}
