package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.cli.Cli;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Commands that share options (picocli mixins) offer them alike: download and upload their server, rounds, buffer,
 * cooperation and output options; load and load-bench their report's format and file. Same names, defaults, help text,
 * value conversion, and the same one-line usage error (exit 2) for a bad value.
 */
class SharedOptionsTest {
    private static final String DOWNLOAD_UPLOAD = "--host --port --token --answer-timeout --repeat --warmup --concurrency --verify "
            + "--no-syscalls --quiet --buffer --unaligned --client-id --start-at --format --out --chart";

    @ParameterizedTest
    @CsvSource({"download, upload, " + DOWNLOAD_UPLOAD, "load, load-bench, --format --out"})
    void sharedOptionsAreDeclaredAlike(String one, String other, String options) {
        CommandLine root = Cli.commandLine(new ClientMain());
        for (String name : options.split(" ")) {
            OptionSpec a = root.getSubcommands().get(one).getCommandSpec().findOption(name);
            OptionSpec b = root.getSubcommands().get(other).getCommandSpec().findOption(name);
            assertThat(a).as(one + " " + name).isNotNull();
            assertThat(b).as(other + " " + name).isNotNull();
            assertThat(describe(b)).as(name).isEqualTo(describe(a));
        }
    }

    /** Everything a user sees of an option or that decides what it accepts. */
    private static List<Object> describe(OptionSpec o) {
        return List.of(List.of(o.names()), String.valueOf(o.defaultValue()), List.of(o.description()), o.paramLabel(), o.arity(),
                o.type(), o.splitRegex(), o.hidden(), o.required(),
                o.converters() == null ? List.of() : Arrays.stream(o.converters()).map(Object::getClass).toList());
    }

    /** A bad value of a shared option: the same line from both commands but for the command's name, exit 2, before any work. */
    @ParameterizedTest
    @CsvSource({
        "download, upload, --format xml", "download, upload, --port 70000", "download, upload, --answer-timeout 0s",
        "download, upload, --concurrency 0", "download, upload, --buffer 0", "download, upload, --client-id 3/2",
        "download, upload, '--format json,csv'", "download, upload, --out /no-such-directory/report.txt",
        "load, load-bench, --format xml", "load, load-bench, --out /no-such-directory/report.txt"})
    void aBadValueIsTheSameUsageErrorFromBoth(String one, String other, String args) {
        UsageErrorsTest.Run a = UsageErrorsTest.run(argv(one, args));
        UsageErrorsTest.Run b = UsageErrorsTest.run(argv(other, args));
        assertThat(a.exit()).as(a.err()).isEqualTo(Cli.USAGE);
        assertThat(b.exit()).as(b.err()).isEqualTo(Cli.USAGE);
        assertThat(a.err().strip().lines()).as(a.err()).hasSize(1);
        assertThat(b.err().replace(other + ": ", one + ": ")).isEqualTo(a.err());
    }

    /** load-bench requires its server jar before it looks at other options; pom.xml stands in (nothing starts on a usage error). */
    private static String[] argv(String command, String args) {
        String jar = command.equals("load-bench") ? " --server-jar pom.xml" : "";
        return (command + jar + " " + args).split(" ");
    }
}
