package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedResidencyTest {
    private static final int SIZE = 8 << 20;

    @TempDir
    Path dir;

    @Test
    void followsTheCacheAndPinsNothing() throws Exception {
        Path file = TestData.file(dir.resolve("f"), SIZE + 1, 7);
        long pages = (SIZE + 1 + AlignedBuffers.pageSize() - 1) / AlignedBuffers.pageSize();
        PageCache.evict(file);
        try (MappedResidency watched = MappedResidency.map(file)) {
            PageCache.Residency evicted = watched.residency();
            assertThat(evicted.totalPages()).isEqualTo(pages);
            assertThat(evicted.fraction()).as("evicted: %s", evicted).isLessThanOrEqualTo(0.05);

            assertThat(Files.readAllBytes(file)).hasSize(SIZE + 1);
            PageCache.Residency read = watched.residency();
            assertThat(read.fraction()).as("after a buffered read: %s", read).isGreaterThanOrEqualTo(0.95);
            assertThat(PageCache.residency(file).residentPages()).isEqualTo(read.residentPages());

            // The mapping is never touched, so eviction is not held back by it.
            PageCache.evict(file);
            PageCache.Residency again = watched.residency();
            assertThat(again.fraction()).as("evicted while mapped: %s", again).isLessThanOrEqualTo(0.05);
        }
    }

    @Test
    void emptyFileHasNoPagesAndClosedWatchRefuses() throws Exception {
        Path empty = Files.createFile(dir.resolve("empty"));
        MappedResidency watched = MappedResidency.map(empty);
        assertThat(watched.residency()).isEqualTo(new PageCache.Residency(0, 0));
        watched.close();
        watched.close();
        assertThatThrownBy(watched::residency).isInstanceOf(IllegalStateException.class).hasMessageContaining("empty");
    }

    @Test
    void missingFileNamesTheCall() {
        assertThatThrownBy(() -> MappedResidency.map(dir.resolve("absent")))
                .isInstanceOf(NativeException.class).hasMessageContaining("open(").hasMessageContaining("ENOENT");
    }
}
