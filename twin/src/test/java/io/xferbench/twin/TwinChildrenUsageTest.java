package io.xferbench.twin;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.cli.Cli;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.uring.UringDepth;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The twin module's child programs (drain, Java sender and receiver, O_DIRECT reader): a bad command line is one
 * line on stderr naming the program and exit 2, before any socket or file is opened; the command lines the harness
 * builds still parse.
 */
class TwinChildrenUsageTest {
    private static final String UPLOAD = UploadMethods.ids().getFirst();

    static Stream<Arguments> badCommandLines() {
        Supplier<Object> read = DirectReadThroughput::new;
        Supplier<Object> drain = TwinDrain::new;
        Supplier<Object> send = TwinSend::new;
        Supplier<Object> receive = TwinReceive::new;
        Supplier<Object> file = TwinFile::new;
        return Stream.of(
                Arguments.of("twin-file", file, ""),
                Arguments.of("twin-file", file, "d"),
                Arguments.of("twin-file", file, "d lots"),
                Arguments.of("twin-file", file, "d 1MiB --warm --evict"),
                Arguments.of("twin-file", file, "d 1MiB --cold"),
                Arguments.of("direct-read", read, ""),
                Arguments.of("direct-read", read, "f --rounds x"),
                Arguments.of("direct-read", read, "f --rounds 0"),
                Arguments.of("direct-read", read, "f --api mmap"),
                Arguments.of("direct-read", read, "f --block lots"),
                Arguments.of("direct-read", read, "f g"),
                Arguments.of("direct-read", read, "f --bogus"),
                Arguments.of("twin-drain", drain, "--port x"),
                Arguments.of("twin-drain", drain, "--port 70000"),
                Arguments.of("twin-drain", drain, "--connections -1"),
                Arguments.of("twin-drain", drain, "--bogus"),
                Arguments.of("twin-drain", drain, "extra"),
                Arguments.of("twin-send", send, ""),
                Arguments.of("twin-send", send, "transfer-to f h"),
                Arguments.of("twin-send", send, "nope f h 1"),
                Arguments.of("twin-send", send, "transfer-to f h x"),
                Arguments.of("twin-send", send, "transfer-to f h 1 --rounds x"),
                Arguments.of("twin-send", send, "transfer-to f h 1 --warmup -1"),
                Arguments.of("twin-send", send, "transfer-to f h 1 lots"),
                Arguments.of("twin-send", send, "transfer-to f h 1 --length big"),
                Arguments.of("twin-send", send, "transfer-to f h 1 --io-uring-depth 0"),
                Arguments.of("twin-send", send, "transfer-to f h 1 --io-uring-depth 5000"), // checked in call(), before any work
                Arguments.of("twin-send", send, "transfer-to f h 1 64KiB extra"),
                Arguments.of("twin-send", send, "transfer-to f h 1 --bogus"),
                Arguments.of("twin-receive", receive, ""),
                Arguments.of("twin-receive", receive, "nope t"),
                Arguments.of("twin-receive", receive, UPLOAD + " t x"),
                Arguments.of("twin-receive", receive, UPLOAD + " t --io-uring-depth x"),
                Arguments.of("twin-receive", receive, UPLOAD + " t --io-uring-depth 5000"),
                Arguments.of("twin-receive", receive, UPLOAD + " t 64KiB extra"),
                Arguments.of("twin-receive", receive, UPLOAD + " t --bogus"));
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("badCommandLines")
    void badCommandLinesAreOneLineAndExitTwo(String name, Supplier<Object> program, String args) {
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        CommandLine cl = Cli.commandLine(program.get());
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(out, true));
        int exit = cl.execute(args.isEmpty() ? new String[0] : args.split(" "));
        String text = err.toString();
        assertThat(exit).as(text).isEqualTo(Cli.USAGE);
        assertThat(text.strip().lines()).as(text).singleElement().asString().startsWith(name + ": ");
        assertThat(text).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out.toString()).as("nothing started, nothing printed on stdout").isEmpty();
        assertThat(UringDepth.get()).isEqualTo(UringDepth.DEFAULT);
    }

    @Test
    void theHarnessCommandLinesParse() {
        TwinSend send = new TwinSend();
        Cli.commandLine(send).parseArgs(JavaSenderProcess.arguments("transfer-to", Path.of("f"), 4321, 131072, 1000, 2, 16));
        assertThat(send.method.id()).isEqualTo("transfer-to");
        assertThat(send.path).isEqualTo(Path.of("f"));
        assertThat(send.host).isEqualTo("127.0.0.1");
        assertThat(send.port).isEqualTo(4321);
        assertThat(send.buffer).isEqualTo(131072);
        assertThat(send.length).isEqualTo(1000L);
        assertThat(send.warmup).isEqualTo(2);
        assertThat(send.uringDepth).isEqualTo(16);
        assertThat(send.onStdin).isTrue();

        TwinReceive receive = new TwinReceive();
        Cli.commandLine(receive).parseArgs(JavaReceiverProcess.arguments(UPLOAD, Path.of("t"), 65536, 4));
        assertThat(receive.method.id()).isEqualTo(UPLOAD);
        assertThat(receive.target).isEqualTo(Path.of("t"));
        assertThat(receive.buffer).isEqualTo(65536);
        assertThat(receive.bind).isEqualTo("127.0.0.1");
        assertThat(receive.uringDepth).isEqualTo(4);

        TwinDrain drain = new TwinDrain();
        Cli.commandLine(drain).parseArgs(); // TwinDrainProcess starts it without arguments
        assertThat(drain.bind).isEqualTo("127.0.0.1");
        assertThat(drain.port).isZero();
        assertThat(drain.connections).isZero();

        DirectReadThroughput read = new DirectReadThroughput(); // as scripts/fio-compare runs it
        Cli.commandLine(read).parseArgs("file", "--api", "jdk", "--block", "1MiB");
        assertThat(read.file).isEqualTo(Path.of("file"));
        assertThat(read.api).isEqualTo(DirectReadThroughput.Api.JDK);
        assertThat(read.block).isEqualTo(1 << 20);
        assertThat(read.rounds).isEqualTo(1);
    }
}
