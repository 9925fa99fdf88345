package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.disk.DiskBench;
import io.xferbench.disk.pollution.PollutionOptions;
import io.xferbench.server.ServerMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command lines in README.md and docs/*.md name only options the real commands have: every {@code --option} after
 * {@code xferbench-client[.jar] SUBCOMMAND}, {@code xferbench-server[.jar]} or a {@code scripts/} entry point that runs
 * them must exist in that command's picocli spec. Fenced code blocks are read line by line (a trailing backslash joins
 * lines, {@code #} starts a comment), prose only inside backticks. Placeholders (HOST, FILE, ...) are not options and
 * are not looked at. Scripts that run something else (JMH, the gate, fio, the C twins) are not checked here.
 */
class DocumentedCommandLinesTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern INVOCATION = Pattern.compile("(?<client>xferbench-client(?:\\.jar)?|scripts/client)"
            + "(?:\\s+(?<sub>[a-z][a-z-]*))?(?:\\s+(?<nested>[a-z][a-z-]*))?"
            + "|(?<server>xferbench-server(?:\\.jar)?|scripts/server)|scripts/(?<script>[a-z][a-z-]*)");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

    private static final CommandSpec CLIENT = new CommandLine(new ClientMain()).getCommandSpec();
    private static final CommandSpec SERVER = new CommandLine(new ServerMain()).getCommandSpec();

    /** What each checked script runs: the commands whose options it takes (the bench scripts' --netns runs veth). */
    private static final Map<String, List<String>> SCRIPTS = Map.of(
            "bench", List.of("download", "veth"),
            "bench-upload", List.of("upload", "veth"),
            "bench-proxy", List.of("proxy", "veth"),
            "bench-load", List.of("load-bench", "load clean", "veth"));

    /** Scripts that run a command of their own (module disk), not the client's. */
    private static final Map<String, CommandSpec> OWN_COMMAND_SCRIPTS = Map.of(
            "bench-disk", new CommandLine(new DiskBench.Options()).getCommandSpec(),
            "bench-pollution", new CommandLine(new PollutionOptions()).getCommandSpec());

    /** One documented command line that names an option its command does not have. */
    record Drift(String file, String line, String command, String option) {
    }

    /** The options a command accepts, by its path under the client ("load clean"). */
    private static Set<String> clientOptions(String path) {
        CommandSpec spec = CLIENT;
        for (String name : path.split(" ")) {
            spec = spec.subcommands().get(name).getCommandSpec();
        }
        return new HashSet<>(spec.optionsMap().keySet());
    }

    /** The drifts in one document's text; {@code checked} counts the invocations whose options were looked at. */
    static List<Drift> drifts(String file, String text, int[] checked) {
        List<Drift> out = new ArrayList<>();
        boolean fenced = false;
        StringBuilder joined = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                if (line.endsWith("\\")) {
                    joined.append(line, 0, line.length() - 1).append(' ');
                    continue;
                }
                joined.append(line);
                String command = joined.toString();
                joined.setLength(0);
                int comment = command.indexOf(" #");
                check(file, comment < 0 ? command : command.substring(0, comment), out, checked);
            } else {
                Matcher span = CODE_SPAN.matcher(line);
                while (span.find()) {
                    check(file, span.group(1), out, checked);
                }
            }
        }
        return out;
    }

    private static void check(String file, String text, List<Drift> out, int[] checked) {
        Matcher m = INVOCATION.matcher(text);
        List<int[]> starts = new ArrayList<>();
        List<Set<String>> allowed = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (m.find()) {
            Set<String> options = options(m);
            if (options == null) {
                continue;
            }
            starts.add(new int[] {m.start(), m.end()});
            allowed.add(options);
            names.add(m.group());
        }
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : text.length();
            Matcher o = OPTION.matcher(text.substring(starts.get(i)[1], end));
            checked[0]++;
            while (o.find()) {
                if (!allowed.get(i).contains(o.group())) {
                    out.add(new Drift(file, text.strip(), names.get(i), o.group()));
                }
            }
        }
    }

    /** The options the matched invocation accepts; null when it is not one this test checks. */
    private static Set<String> options(Matcher m) {
        if (m.group("server") != null) {
            return new HashSet<>(SERVER.optionsMap().keySet());
        }
        if (m.group("script") != null && OWN_COMMAND_SCRIPTS.containsKey(m.group("script"))) {
            return new HashSet<>(OWN_COMMAND_SCRIPTS.get(m.group("script")).optionsMap().keySet());
        }
        if (m.group("script") != null) {
            List<String> commands = SCRIPTS.get(m.group("script"));
            if (commands == null) {
                return null;
            }
            Set<String> options = new HashSet<>();
            commands.forEach(c -> options.addAll(clientOptions(c)));
            if (m.group("script").equals("bench-load")) {
                options.add("--clean"); // the script's own switch for `load clean`
            }
            return options;
        }
        String sub = m.group("sub");
        if (sub == null) {
            return new HashSet<>(CLIENT.optionsMap().keySet());
        }
        if (!CLIENT.subcommands().containsKey(sub)) {
            return null;
        }
        String nested = m.group("nested");
        CommandSpec spec = CLIENT.subcommands().get(sub).getCommandSpec();
        return clientOptions(nested != null && spec.subcommands().containsKey(nested) ? sub + " " + nested : sub);
    }

    @Test
    void everyDocumentedOptionExistsInItsCommand() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        List<Drift> drifts = new ArrayList<>();
        int[] checked = {0};
        for (Path doc : docs) {
            drifts.addAll(drifts(doc.getFileName().toString(), Files.readString(doc), checked));
        }
        assertThat(drifts).as("documented options the command does not have").isEmpty();
        assertThat(checked[0]).as("command lines checked").isGreaterThan(20);
    }

    @Test
    void aMisspeltOptionIsFoundInCodeBlocksAndCodeSpans() {
        String doc = """
                Run `scripts/bench --size 1GiB --verfy length` or:
                ```
                java -jar client/target/xferbench-client.jar download --host H \\
                     [--repeat 5] [--colour] --out FILE   # --not-checked in a comment
                java -jar server/target/xferbench-server.jar --data-dir D --prot 7070
                java -jar client/target/xferbench-client.jar load clean --data-dir D
                ```
                """;
        int[] checked = {0};
        assertThat(drifts("doc.md", doc, checked)).extracting(Drift::command, Drift::option).containsExactly(
                org.assertj.core.groups.Tuple.tuple("scripts/bench", "--verfy"),
                org.assertj.core.groups.Tuple.tuple("xferbench-client.jar download", "--colour"),
                org.assertj.core.groups.Tuple.tuple("xferbench-server.jar", "--prot"));
        assertThat(checked[0]).isEqualTo(4);
    }

    @Test
    void theDiskScriptsAreCheckedAgainstTheirOwnCommands() {
        String doc = """
                ```
                scripts/bench-disk --size 512MiB --depths 1,32 --random-ops 4000 --cgroup-limit none --blocksizes 4KiB
                scripts/bench-pollution --big-size 1GiB --hot-rate 40 --random-ops 5
                ```
                """;
        int[] checked = {0};
        // --random-ops is bench-disk's, not bench-pollution's: each script is checked against its own spec.
        assertThat(drifts("doc.md", doc, checked)).extracting(Drift::command, Drift::option).containsExactly(
                org.assertj.core.groups.Tuple.tuple("scripts/bench-disk", "--blocksizes"),
                org.assertj.core.groups.Tuple.tuple("scripts/bench-pollution", "--random-ops"));
        assertThat(checked[0]).isEqualTo(2);
    }
}
