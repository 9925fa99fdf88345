package io.xferbench.core.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;

/**
 * Package cycles in a module's classes: jdeps' package-level dependences, kept to the module's own packages, and the
 * strongly connected components of that graph with more than one package. A module's test calls
 * {@link #assertNone(Path)} with its target/classes.
 */
public final class PackageCycles {
    private PackageCycles() {
    }

    /** The module under test's own classes: surefire runs in the module's directory. */
    public static Path moduleClasses() {
        return Path.of("target", "classes");
    }

    /** Fails, naming every cycle and its edges, if {@code classes} (a directory or jar) have one. */
    public static void assertNone(Path classes) {
        assertOnly(classes, List.of());
    }

    /**
     * The same, but for the cycles in {@code known}, each exactly as it stands: one still to be broken up, so the test
     * keeps failing on any new or grown cycle. A known cycle that shrank or is gone fails too, so the list shrinks.
     */
    public static void assertOnly(Path classes, List<Set<String>> known) {
        Map<String, SortedSet<String>> graph = graph(classes);
        List<SortedSet<String>> cycles = in(graph);
        String problems = problems(graph, cycles, known);
        if (!problems.isEmpty()) {
            throw new AssertionError("package cycles in " + classes + ":\n" + problems);
        }
    }

    /** The cycles not in {@code known}, and the known ones no longer found; empty when they match. */
    static String problems(Map<String, ? extends Set<String>> graph, List<SortedSet<String>> cycles, List<Set<String>> known) {
        List<SortedSet<String>> unknown = cycles.stream().filter(c -> !known.contains(c)).toList();
        StringBuilder s = new StringBuilder(describe(graph, unknown));
        known.stream().filter(k -> !cycles.contains(new TreeSet<>(k)))
                .forEach(k -> s.append("  known cycle ").append(new TreeSet<>(k)).append(" is no longer one: take it off the list\n"));
        return s.toString();
    }

    /** The directory or jar {@code c} was loaded from (target/classes in a reactor build). */
    public static Path classesOf(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Package → the other own packages it depends on, from {@code jdeps -verbose:package} over {@code classes}. Fails
     * on a missing path or an empty graph: jdeps only warns of the one, and either would pass every check vacuously.
     */
    public static Map<String, SortedSet<String>> graph(Path classes) {
        if (!Files.exists(classes)) {
            throw new IllegalStateException("no classes at " + classes.toAbsolutePath() + " to look for package cycles in");
        }
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new IllegalStateException("no jdeps in this JDK (" + System.getProperty("java.home") + ")"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:package", "-filter:none", classes.toString());
        if (status != 0) {
            throw new IllegalStateException("jdeps exited " + status + ": " + err + out);
        }
        Map<String, SortedSet<String>> graph = parse(out.toString());
        if (graph.isEmpty()) {
            throw new IllegalStateException("jdeps found no packages in " + classes.toAbsolutePath() + ": " + err + out);
        }
        return graph;
    }

    /** The graph of jdeps' {@code SOURCE -> TARGET ARCHIVE} lines, targets kept to packages that are sources too. */
    static Map<String, SortedSet<String>> parse(String jdepsOutput) {
        Map<String, SortedSet<String>> graph = new TreeMap<>();
        List<String[]> edges = new ArrayList<>();
        for (String line : jdepsOutput.lines().toList()) {
            String[] f = line.strip().split("\\s+");
            if (line.startsWith(" ") && f.length >= 3 && f[1].equals("->")) {
                graph.computeIfAbsent(f[0], p -> new TreeSet<>());
                edges.add(f);
            }
        }
        for (String[] e : edges) {
            if (graph.containsKey(e[2]) && !e[0].equals(e[2])) {
                graph.get(e[0]).add(e[2]);
            }
        }
        return graph;
    }

    /** The strongly connected components of more than one package (Tarjan), each sorted, in order of first package. */
    public static List<SortedSet<String>> in(Map<String, ? extends Set<String>> graph) {
        return new Components(graph).cycles();
    }

    /** Each cycle's packages and the dependences between them, one per line. */
    static String describe(Map<String, ? extends Set<String>> graph, List<SortedSet<String>> cycles) {
        StringBuilder s = new StringBuilder();
        for (SortedSet<String> cycle : cycles) {
            s.append("  cycle ").append(cycle).append('\n');
            for (String p : cycle) {
                String to = graph.get(p).stream().filter(cycle::contains).collect(Collectors.joining(", "));
                s.append("    ").append(p).append(" -> ").append(to).append('\n');
            }
        }
        return s.toString();
    }

    private static final class Components {
        private final Map<String, ? extends Set<String>> graph;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<SortedSet<String>> found = new ArrayList<>();

        Components(Map<String, ? extends Set<String>> graph) {
            this.graph = graph;
        }

        List<SortedSet<String>> cycles() {
            new TreeSet<>(graph.keySet()).forEach(p -> {
                if (!index.containsKey(p)) {
                    visit(p);
                }
            });
            found.sort(Comparator.comparing(SortedSet::first));
            return found;
        }

        // Recursive: a module has tens of packages, far from any stack limit.
        private void visit(String p) {
            index.put(p, index.size());
            low.put(p, index.get(p));
            stack.push(p);
            onStack.add(p);
            for (String q : graph.get(p)) {
                if (!graph.containsKey(q)) {
                    continue;
                }
                if (!index.containsKey(q)) {
                    visit(q);
                    low.put(p, Math.min(low.get(p), low.get(q)));
                } else if (onStack.contains(q)) {
                    low.put(p, Math.min(low.get(p), index.get(q)));
                }
            }
            if (low.get(p).equals(index.get(p))) {
                SortedSet<String> component = new TreeSet<>();
                String q;
                do {
                    q = stack.pop();
                    onStack.remove(q);
                    component.add(q);
                } while (!q.equals(p));
                if (component.size() > 1) {
                    found.add(component);
                }
            }
        }
    }
}
