package io.xferbench.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.xferbench.nativeio.JvmFlags;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PackageCyclesTest {
    @Test
    void aCycleThroughThreePackagesIsOneComponent() {
        Map<String, Set<String>> graph = Map.of(
                "a", Set.of("b"),
                "b", Set.of("c"),
                "c", Set.of("a", "d"),
                "d", Set.of());
        assertEquals(List.of(sorted("a", "b", "c")), PackageCycles.in(graph));
    }

    @Test
    void twoSeparateCyclesAreNamedApart() {
        Map<String, Set<String>> graph = Map.of(
                "x", Set.of("y"), "y", Set.of("x", "p"),
                "p", Set.of("q"), "q", Set.of("p"));
        assertEquals(List.of(sorted("p", "q"), sorted("x", "y")), PackageCycles.in(graph));
    }

    @Test
    void aLayeredGraphHasNone() {
        Map<String, Set<String>> graph = Map.of(
                "app", Set.of("core", "util"),
                "core", Set.of("util"),
                "util", Set.of("java.lang"));
        assertTrue(PackageCycles.in(graph).isEmpty());
    }

    @Test
    void jdepsLinesBecomeEdgesBetweenOwnPackagesOnly() {
        String out = """
                classes -> java.base
                   io.x.a                                -> io.x.b                         classes
                   io.x.a                                -> java.lang                      java.base
                   io.x.b                                -> io.x.a                         classes
                   io.x.b                                -> io.x.b                         classes
                """;
        Map<String, SortedSet<String>> graph = PackageCycles.parse(out);
        assertEquals(Map.of("io.x.a", sorted("io.x.b"), "io.x.b", sorted("io.x.a")), graph);
        assertEquals("  cycle [io.x.a, io.x.b]\n    io.x.a -> io.x.b\n    io.x.b -> io.x.a\n",
                PackageCycles.describe(graph, PackageCycles.in(graph)));
    }

    @Test
    void aKnownCycleIsToleratedOnlyAsItStands() {
        Map<String, Set<String>> graph = Map.of("a", Set.of("b"), "b", Set.of("a", "c"), "c", Set.of("b"), "x", Set.of("y"), "y", Set.of("x"));
        List<SortedSet<String>> cycles = PackageCycles.in(graph);
        assertEquals("", PackageCycles.problems(graph, cycles, List.of(Set.of("a", "b", "c"), Set.of("x", "y"))));
        assertTrue(PackageCycles.problems(graph, cycles, List.of(Set.of("a", "b", "c"))).startsWith("  cycle [x, y]\n"),
                "a cycle not on the list fails");
        String grown = PackageCycles.problems(graph, cycles, List.of(Set.of("a", "b"), Set.of("x", "y")));
        assertTrue(grown.contains("  cycle [a, b, c]\n"), "the grown cycle fails: " + grown);
        assertTrue(grown.contains("  known cycle [a, b] is no longer one"), "the stale entry fails: " + grown);
    }

    @Test
    void coreAndNativeHaveNoPackageCycle() {
        PackageCycles.assertNone(PackageCycles.moduleClasses());
        PackageCycles.assertNone(PackageCycles.classesOf(JvmFlags.class));
    }

    private static SortedSet<String> sorted(String... packages) {
        return new TreeSet<>(List.of(packages));
    }

    @Test
    void aMissingClassesPathFailsInsteadOfPassingVacuously() {
        Path missing = Path.of("target", "no-such-classes");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PackageCycles.assertNone(missing));
        assertTrue(e.getMessage().contains("no-such-classes"), e.getMessage());
    }

    @Test
    void classesWithNoPackagesFailInsteadOfPassingVacuously(@TempDir Path empty) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PackageCycles.assertNone(empty));
        assertTrue(e.getMessage().contains("no packages"), e.getMessage());
    }
}
