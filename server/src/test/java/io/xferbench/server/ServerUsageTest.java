package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.cli.Cli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The server's bad command lines: one line, exit 2, nothing started. */
class ServerUsageTest {

    @ParameterizedTest
    @ValueSource(strings = {"--port 99999", "--port -1", "--max-connections 0", "--max-upload lots", "--min-rate 0",
        "--max-buffer-memory 1XB", "--idle-timeout 0", "--relay-buffer 0 --proxy-to 127.0.0.1:1", "--io-uring-ring-size 100", "--io-uring-ring-size 8",
        "--io-uring-ring-size 65536", "--bogus", ""})
    void badCommandLinesAreOneLineAndExitTwo(String args) {
        String[] argv = args.isEmpty() ? new String[0] : args.split(" ");
        if (!args.contains("--proxy-to") && !args.isEmpty()) {
            argv = (args + " --data-dir /nonexistent-but-never-created").split(" ");
        }
        assertOneLineUsageError(argv);
    }

    /** Values the types accept but the server cannot use: told before anything starts, not as a failure later. */
    @ParameterizedTest
    @ValueSource(strings = {"--data-dir=", "--data-dir=/etc/passwd", "--data-dir=/nonexistent-but-never-created --bind=no-such-host.invalid",
        "--data-dir=/nonexistent-but-never-created --token-file=/tmp", "--data-dir=/nonexistent-but-never-created --token=",
        "--proxy-to=127.0.0.1:1 --relay=nope", "--proxy-to=127.0.0.1:1 --relay=splice --relay-buffer=1",
        "--data-dir=/nonexistent-but-never-created --max-buffer-memory=1024GiB", "--proxy-to=127.0.0.1:1 --max-buffer-memory=1024GiB",
        "--data-dir=/nonexistent-but-never-created --tls-cert=/etc/hostname", "--data-dir=/nonexistent-but-never-created --tls-key=/etc/hostname",
        "--data-dir=/nonexistent-but-never-created --tls-cert=/nonexistent-cert --tls-key=/etc/hostname",
        "--data-dir=/nonexistent-but-never-created --tls-cert=/etc/hostname --tls-key=/etc/hostname"})
    void unusableValuesAreOneLineAndExitTwo(String args) {
        assertOneLineUsageError(args.split(" "));
        assertThat(java.nio.file.Path.of("/nonexistent-but-never-created")).doesNotExist();
    }

    /**
     * Upstreams no connection can use, told before the proxy listens: a port out of range or 0, and the proxy's own
     * address and port, which relayed every connection to itself until every slot was taken (the wildcard listens on
     * loopback too). The port is not bound by the refused proxy, so any fixed one does.
     */
    @ParameterizedTest
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @ValueSource(strings = {"--proxy-to=127.0.0.1:99999", "--proxy-to=127.0.0.1:0", "--proxy-to=127.0.0.1:x", "--proxy-to=127.0.0.1",
        "--proxy-to=localhost:47012 --port=47012", "--proxy-to=127.0.0.1:47012 --port=47012",
        "--proxy-to=127.0.0.1:47012 --port=47012 --bind=0.0.0.0", "--proxy-to=localhost:47012 --port=47012 --bind=localhost",
        "--proxy-to=[::1]:47012 --port=47012 --bind=::"})
    void unusableUpstreamsAreOneLineAndExitTwo(String args) {
        assertOneLineUsageError(args.split(" "));
    }

    /** A server's option given to a proxy is refused, naming it and why, not ignored. */
    @ParameterizedTest
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @ValueSource(strings = {"--data-dir=/nonexistent-but-never-created", "--max-upload=1GiB", "--max-generated=1GiB",
        "--min-rate=2MiB", "--shutdown-grace=5", "--io-model=virtual", "--io-uring-depth=8", "--io-uring-ring-size=64",
        "--cork-responses", "--tls", "--tls-cert=/etc/hostname", "--tls-key=/etc/hostname"})
    void serverOnlyOptionsAreRefusedByAProxy(String option) {
        String err = assertOneLineUsageError(("--proxy-to=127.0.0.1:1 --port=0 " + option).split(" "));
        assertThat(err).contains(option.split("=")[0] + " does not apply to a proxy (--proxy-to): ");
        assertThat(java.nio.file.Path.of("/nonexistent-but-never-created")).doesNotExist();
    }

    /** A proxy's token is checked as the server's: an empty one, or a file that cannot be read, is a usage error. */
    @ParameterizedTest
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @ValueSource(strings = {"--token=", "--token-file=/tmp", "--token-file=/nonexistent-but-never-created"})
    void unusableTokensOfAProxyAreOneLineAndExitTwo(String option) {
        String err = assertOneLineUsageError(("--proxy-to=127.0.0.1:1 --port=0 " + option).split(" "));
        assertThat(err).contains(option.split("=")[0]);
    }

    /** Every option is one a proxy uses or one it refuses: a new server option cannot be ignored by a proxy unnoticed. */
    @Test
    void everyOptionIsUsedOrRefusedByAProxy() {
        Set<String> used = Set.of("--help", "--version", "--bind", "--port", "--max-connections", "--token", "--token-file",
                "--max-buffer-memory", "--io-uring-max-workers", "--idle-timeout", "--proxy-to", "--relay", "--relay-buffer");
        Set<String> refused = Stream.of(ServerOnlyOption.values()).map(o -> o.name).collect(Collectors.toSet());
        Set<String> all = new CommandLine(new ServerMain()).getCommandSpec().options().stream()
                .map(OptionSpec::longestName).collect(Collectors.toSet());
        assertThat(refused).doesNotContainAnyElementsOf(used);
        assertThat(Stream.concat(used.stream(), refused.stream()).collect(Collectors.toSet())).isEqualTo(all);
    }

    private static String assertOneLineUsageError(String[] argv) {
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(new ServerMain());
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(argv);
        String text = err.toString() + System.lineSeparator();
        assertThat(exit).as(text).isEqualTo(Cli.USAGE);
        assertThat(err.toString().strip().lines()).as(text).hasSizeLessThanOrEqualTo(1);
        assertThat(text).doesNotContain("Exception").doesNotContain("\tat ");
        return err.toString();
    }
}
