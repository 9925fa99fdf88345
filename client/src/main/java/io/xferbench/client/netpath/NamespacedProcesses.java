package io.xferbench.client.netpath;

import io.xferbench.client.process.GracefulStop;
import io.xferbench.core.process.ChildCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server, proxy and client processes of a run over a veth pair: each started so that it dies with this process,
 * even by SIGKILL (util-linux setpriv's parent-death signal), and all stopped on close, last started first.
 */
final class NamespacedProcesses implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on (\\S+):(\\d+)");
    /** SIGKILL when this process dies: a killed run must not leave a server holding its namespace. */
    private static final ChildCommand DYING_WITH_RUN = ChildCommand.dyingWithParent(ChildCommand.DeathSignal.KILL);
    private static final long START_SECONDS = 60;
    private static final int EARLY_LINES = 40;

    private final Deque<Process> started = new ArrayDeque<>();

    /** Starts an xferbench server (or proxy) and returns the port it reports; its later output goes to stderr. */
    int startServer(List<String> command, String what) throws IOException {
        Process p = start(new ProcessBuilder(DYING_WITH_RUN.of(command)).redirectErrorStream(true));
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("xferbench-" + what + "-log").start(() -> {
            Deque<String> early = new ArrayDeque<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    Matcher m = LISTENING.matcher(line);
                    if (!port.isDone() && m.find()) {
                        port.complete(Integer.parseInt(m.group(2)));
                    } else if (!port.isDone()) {
                        early.addLast(line);  // shown only if it never listens: the bind warning is noise here
                        if (early.size() > EARLY_LINES) {
                            early.removeFirst();
                        }
                    } else {
                        System.err.println(what + ": " + line);
                    }
                }
            } catch (IOException e) {
                // The process is gone; the future says so below.
            }
            port.completeExceptionally(new IOException(what + " exited before listening: " + String.join(" | ", early)));
        });
        try {
            return port.get(START_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException(what + " did not report its port in " + START_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the " + what, e);
        }
    }

    /** Runs a command with this process's stdin, stdout and stderr and returns its exit status. */
    int runToEnd(List<String> command) throws IOException, InterruptedException {
        Process p = start(new ProcessBuilder(DYING_WITH_RUN.of(command)).inheritIO());
        int status = p.waitFor();
        started.remove(p);
        return status;
    }

    private Process start(ProcessBuilder builder) throws IOException {
        Process p = builder.start();
        started.push(p);
        return p;
    }

    @Override
    public void close() {
        while (!started.isEmpty()) {
            GracefulStop.stop(started.pop());
        }
    }
}
