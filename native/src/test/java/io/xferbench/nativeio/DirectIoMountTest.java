package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.nativeio.testing.NativeAssumptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * O_DIRECT on file systems mounted for the test (needs root; skipped with the reason otherwise). Whether
 * tmpfs accepts O_DIRECT depends on the kernel (6.6+ does), and ramfs has no direct I/O: each test checks
 * what this kernel really does and asserts the matching outcome.
 */
class DirectIoMountTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tmpfs", "ramfs"})
    void directIoIsEitherRealOrRefusedNamingTheFileSystem(String type, @TempDir Path dir) throws Exception {
        mount(type, dir);
        try {
            checkDirectIo(type, dir.resolve("f"));
        } catch (Throwable t) {
            // Detach even if an fd is still open, without hiding the failure behind an umount error.
            run("umount", "--lazy", dir.toString());
            throw t;
        }
        assertThat(run("umount", dir.toString())).as("umount (busy means an fd leaked)").isNull();
    }

    private static void checkDirectIo(String type, Path file) throws Exception {
        if (kernelAcceptsODirect(file)) {
            byte[] data = TestData.bytes(8192, 5);
            try (DirectIoFile f = DirectIoFile.openWrite(file, true)) {
                ByteBuffer buffer = AlignedBuffers.allocate(data.length, f.alignment());
                assertThat(f.pwrite(buffer.put(data).flip(), 0)).isEqualTo(data.length);
                assertThat(f.alignmentSource()).matches("statx STATX_DIOALIGN|fallback: fstatfs f_bsize "
                        + "\\(statx did not report STATX_DIOALIGN on " + type + " .*");
            }
            try (DirectIoFile f = DirectIoFile.openRead(file)) {
                ByteBuffer buffer = AlignedBuffers.allocate(data.length, f.alignment());
                assertThat(f.pread(buffer, 0)).isEqualTo(data.length);
                byte[] read = new byte[data.length];
                buffer.flip().get(read);
                assertThat(read).isEqualTo(data);
            }
        } else {
            assertThatThrownBy(() -> DirectIoFile.openWrite(file, true))
                    .isInstanceOf(NativeException.class)
                    .hasMessageContaining("file system " + type + " ")
                    .hasMessageContaining("refuses O_DIRECT")
                    .hasMessageContaining("EINVAL")
                    .hasMessageContaining("Invalid argument");
            Files.write(file, new byte[] {1});
            assertThatThrownBy(() -> DirectIoFile.openRead(file))
                    .isInstanceOf(NativeException.class)
                    .hasMessageContaining("file system " + type + " ")
                    .hasMessageContaining("EINVAL");
        }
    }

    /** Ground truth from outside the JVM: dd with oflag=direct is a plain open(O_DIRECT) + write. */
    private static boolean kernelAcceptsODirect(Path file) throws Exception {
        Process dd = new ProcessBuilder("dd", "if=/dev/zero", "of=" + file, "bs=4096", "count=1", "oflag=direct")
                .redirectErrorStream(true).start();
        String output = new String(dd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(dd.waitFor(10, TimeUnit.SECONDS)).isTrue();
        Files.deleteIfExists(file);
        if (dd.exitValue() != 0) {
            assertThat(output).as("dd failed for another reason than O_DIRECT refusal").contains("Invalid argument");
        }
        return dd.exitValue() == 0;
    }

    private static void mount(String type, Path dir) throws Exception {
        NativeAssumptions.assumeAvailable("O_DIRECT on " + type, "root".equals(System.getProperty("user.name")),
                "mounting " + type + " needs root");
        String output = run("mount", "-t", type, "-o", "size=8m", type, dir.toString());
        NativeAssumptions.assumeAvailable("O_DIRECT on " + type, output == null, "cannot mount " + type + ": " + output);
    }

    /** Null on success, else the command's output. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", command) + " timed out";
        }
        return p.exitValue() == 0 ? null : String.join(" ", command) + " exited " + p.exitValue() + ": " + output;
    }
}
