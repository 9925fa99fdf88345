package io.xferbench.core.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.process.ChildCommand.DeathSignal;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ChildProcessTest {

    /** A parent for the kill test: starts a sleeping child dying with it, prints the child's pid, then waits. */
    public static void main(String[] args) throws Exception {
        ChildProcess child = ChildProcess.start("sleeper",
                ChildCommand.dyingWithParent(DeathSignal.KILL).of(List.of("sleep", "60")));
        System.out.println("child " + child.pid());
        System.out.flush();
        Thread.sleep(TimeUnit.SECONDS.toMillis(60));
    }

    @Test
    void readsTheChildsLinesThenItsEnd() throws Exception {
        try (ChildProcess child = ChildProcess.start("echo", List.of("sh", "-c", "echo one; echo two"))) {
            assertThat(child.readLine()).isEqualTo("one");
            assertThat(child.readLine(Duration.ofSeconds(30))).isEqualTo("two");
            assertThat(child.readLine()).isNull();
            assertThat(child.readLine(Duration.ofSeconds(30))).as("the end, again").isNull();
            assertThat(child.waitFor()).isZero();
        }
    }

    @Test
    void writesLinesToTheChildsStdin() throws Exception {
        try (ChildProcess child = ChildProcess.start("cat", List.of("cat"))) {
            child.writeLine("again");
            assertThat(child.readLine()).isEqualTo("again");
            child.closeInput();
            assertThat(child.readLine()).isNull();
        }
    }

    @Test
    void aChildSilentForTheTimeoutIsATimeoutNotAnEnd() throws Exception {
        try (ChildProcess child = ChildProcess.start("cat", List.of("cat"))) {
            assertThatThrownBy(() -> child.readLine(Duration.ofMillis(50))).isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("cat");
            assertThat(child.isAlive()).isTrue();
        }
    }

    /** 2 MB of output, none of it read yet: a child whose stdout nobody drained would block on the 64 KiB pipe. */
    @Test
    void theChildsOutputIsDrainedWhileNobodyReadsIt() throws Exception {
        try (ChildProcess child = ChildProcess.start("writer",
                List.of("sh", "-c", "head -c 2000000 /dev/zero | tr '\\0' x | fold -w 99; echo done"))) {
            assertThat(child.waitFor(Duration.ofSeconds(60))).as("the writer exited without being read").isTrue();
            assertThat(child.readLine()).hasSize(99);
        }
    }

    @Test
    void discardedOutputIsDroppedUpToTheEnd() throws Exception {
        try (ChildProcess child = ChildProcess.start("writer", List.of("sh", "-c", "echo first; seq 1000"))) {
            assertThat(child.readLine()).isEqualTo("first");
            child.discardOutput();
            assertThat(child.waitFor(Duration.ofSeconds(60))).isTrue();
            assertThat(child.readLine()).isNull();
        }
    }

    @Test
    void anInterruptedTerminateStillKillsAChildThatIgnoresTerm() throws Exception {
        ChildProcess child = ChildProcess.start("stubborn", List.of("sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"));
        try {
            assertThat(child.readLine(java.time.Duration.ofSeconds(10))).isEqualTo("ready");
            Thread.currentThread().interrupt(); // as a caller's own interrupt arrives mid-terminate
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> child.terminate(java.time.Duration.ofSeconds(30)))
                    .isInstanceOf(InterruptedException.class);
            assertThat(child.waitFor(java.time.Duration.ofSeconds(10))).as("killed, not left running").isTrue();
        } finally {
            Thread.interrupted();
            child.close();
        }
    }

    @Test
    void aChildDiesWithItsKilledParent() throws Exception {
        MethodAssumptions.assumeAvailable("setpriv", Files.isExecutable(Path.of("/usr/bin/setpriv")), "no /usr/bin/setpriv");
        ChildProcess parent = ChildProcess.start("parent", List.of(ChildCommand.javaExecutable(),
                "-cp", System.getProperty("java.class.path"), ChildProcessTest.class.getName()));
        ProcessHandle child = null;
        try {
            String line = parent.readLine(Duration.ofSeconds(60));
            assertThat(line).startsWith("child ");
            child = ProcessHandle.of(Long.parseLong(line.substring(6))).orElseThrow();
            parent.kill();
            try {
                child.onExit().get(10, TimeUnit.SECONDS);
            } catch (TimeoutException stillThere) {
                // asserted below
            }
            assertThat(child.isAlive()).as("the child 10 s after its parent's SIGKILL").isFalse();
        } finally {
            parent.close();
            if (child != null) {
                child.destroyForcibly();
            }
        }
    }

    @Test
    void forwardedOutputKeepsItsOrderFromTheQueuedLinesOn() throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        try (ChildProcess child = ChildProcess.start("cat", List.of("cat"))) {
            child.writeLine("one");
            child.writeLine("two");
            assertThat(child.readLine()).isEqualTo("one");
            child.forwardOutput(got::add); // "two" queued or not yet read: either way it comes first
            child.writeLine("three");
            child.closeInput();
            assertThat(child.waitFor(Duration.ofSeconds(30))).isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (got.size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(got).containsExactly("two", "three");
            assertThat(child.readLine()).as("the end still reaches a reader").isNull();
        }
    }

    /** A sink that throws must not end the draining: the child would block on a full pipe, or die of SIGPIPE. */
    @Test
    void aFailingSinkStillDrainsTheChildsOutput() throws Exception {
        AtomicReference<String> last = new AtomicReference<>();
        try (ChildProcess child = ChildProcess.start("writer",
                List.of("sh", "-c", "read go; head -c 2000000 /dev/zero | tr '\\0' x | fold -w 99; echo; echo done"))) {
            child.forwardOutput(line -> {
                last.set(line);
                throw new IllegalStateException("sink broken");
            });
            child.writeLine("go");
            assertThat(child.waitFor(Duration.ofSeconds(60))).as("the writer exited though its sink failed").isTrue();
            assertThat(child.waitFor()).as("exit status, not killed by a closed pipe").isZero();
            assertThat(child.readLine()).as("the end, once every line went to the sink").isNull();
            assertThat(last).hasValue("done");
        }
    }

    @Test
    void theLastStderrLinesAreKeptForErrors() throws Exception {
        try (ChildProcess child = ChildProcess.start("complainer", List.of("sh", "-c", "seq 1 25 >&2"))) {
            assertThat(child.waitFor()).isZero();
            assertThat(child.stderrTail()).hasSize(20).startsWith("6").endsWith("25");
        }
    }

    private static final String FORTY_STDERR_LINES = "for i in $(seq 1 40); do echo \"last words $i\" >&2; done";

    @Test
    void theChildsLastStderrLinesAreCopiedWhenItsEndIsRead() throws Exception {
        List<String> copied = copyingStderrSlowly(() -> {
            try (ChildProcess child = ChildProcess.start("dying", List.of("sh", "-c", FORTY_STDERR_LINES))) {
                assertThat(child.readLine()).isNull();
                return SlowStderr.linesSoFar();
            }
        });
        assertThat(copied).hasSize(40).endsWith("last words 40");
    }

    @Test
    void theChildsLastStderrLinesAreCopiedByClose() throws Exception {
        List<String> copied = copyingStderrSlowly(() -> {
            ChildProcess child = ChildProcess.start("dying", List.of("sh", "-c", FORTY_STDERR_LINES));
            assertThat(child.waitFor(Duration.ofSeconds(30))).isTrue();
            child.close();
            return SlowStderr.linesSoFar();
        });
        assertThat(copied).hasSize(40).endsWith("last words 40");
    }

    @Test
    void theChildsLastStderrLinesAreCopiedByTerminate() throws Exception {
        List<String> copied = copyingStderrSlowly(() -> {
            try (ChildProcess child = ChildProcess.start("dying", List.of("sh", "-c",
                    "trap '" + FORTY_STDERR_LINES + "; exit 0' TERM; echo ready; while :; do sleep 0.1; done"))) {
                assertThat(child.readLine(Duration.ofSeconds(30))).isEqualTo("ready");
                child.terminate(Duration.ofSeconds(30));
                return SlowStderr.linesSoFar();
            }
        });
        assertThat(copied).hasSize(40).endsWith("last words 40");
    }

    /** Runs {@code body} with our stderr slowed (3 ms a write), so the copier lags behind a child that exited. */
    private static List<String> copyingStderrSlowly(Callable<List<String>> body) throws Exception {
        PrintStream old = System.err;
        SlowStderr.reset();
        System.setErr(new PrintStream(new SlowStderr(), true, StandardCharsets.UTF_8));
        try {
            return body.call();
        } finally {
            System.setErr(old);
        }
    }

    private static final class SlowStderr extends OutputStream {
        private static final ByteArrayOutputStream BYTES = new ByteArrayOutputStream();

        static synchronized void reset() {
            BYTES.reset();
        }

        static synchronized List<String> linesSoFar() {
            return BYTES.toString(StandardCharsets.UTF_8).lines().toList();
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                Thread.sleep(3);
            } catch (InterruptedException e) {
                throw new InterruptedIOException();
            }
            synchronized (SlowStderr.class) {
                BYTES.write(b, off, len);
            }
        }
    }
}
