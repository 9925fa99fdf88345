package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.CapturedLog;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TempFilesTest {
    @TempDir
    Path root;

    @Test
    void onlyTempFilesOfDeadOwnersAreRemoved() throws Exception {
        String deadOwner = deadOwner();
        Path sub = Files.createDirectories(root.resolve("sub"));
        Path fromDead = Files.write(sub.resolve(".tmp-" + deadOwner + "-up.bin-1a"), new byte[1234]);
        Path mine = Files.createFile(TempFiles.next(root, "mine.bin"));
        long myPid = ProcessHandle.current().pid();
        Path pidReused = Files.createFile(root.resolve(".tmp-" + myPid + ".12345-old.bin-2b"));
        Path legacyOld = Files.createFile(root.resolve(".tmp-xferbench-10.dat-3c"));
        Files.setLastModifiedTime(legacyOld, FileTime.from(Instant.now().minus(TempFiles.LEGACY_AGE).minusSeconds(60)));
        Path legacyFresh = Files.createFile(root.resolve(".tmp-xferbench-11.dat-4d"));
        Path lookalike = Files.createFile(root.resolve("tmp-not-ours.bin"));
        Path hiddenOther = Files.createFile(root.resolve(".tmpfile"));

        var removed = TempFiles.removeStale(root);

        assertThat(removed).extracting(TempFiles.Removed::path).containsExactlyInAnyOrder(fromDead, pidReused, legacyOld);
        assertThat(removed).filteredOn(r -> r.path().equals(fromDead)).extracting(TempFiles.Removed::bytes).containsExactly(1234L);
        assertThat(mine).exists();
        assertThat(legacyFresh).exists();
        assertThat(lookalike).exists();
        assertThat(hiddenOther).exists();
    }

    /**
     * A DELETE moves its entry to a private name before it removes it or puts it back: a server killed in between leaves
     * it there. At the next start a regular file there is removed (the DELETE was under way); a FIFO, socket, symlink or
     * directory goes back to its name (it stayed hidden for good before, and the symlink was removed). A symlink at an
     * upload's temp name, and a live owner's private name, stay.
     */
    @Test
    void whatADeadOwnersDeleteLeftAsideIsRemovedIfARegularFileElsePutBack() throws Exception {
        String aside = ".tmp-" + deadOwner() + "-" + TempFiles.DELETING;
        Path file = Files.writeString(root.resolve(aside + "f-1a"), "file");
        Path link = Files.createSymbolicLink(root.resolve(aside + "alias-2b"), root.resolve("target"));
        mkfifo(root.resolve(aside + "fifo-3c"));
        Path socketAside = root.resolve(aside + "sock-5e");
        try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(socketAside)); // the socket file stays after the close
        }
        Path dirAside = Files.createDirectory(root.resolve(aside + "a-b-6f")); // a dash in the name
        Path deadTempInside = Files.write(dirAside.resolve(".tmp-" + deadOwner() + "-up.bin-7a"), new byte[3]);
        Path uploadLink = Files.createSymbolicLink(root.resolve(".tmp-" + deadOwner() + "-up.bin-4d"), root.resolve("target"));
        Path liveLink = Files.createSymbolicLink(TempFiles.next(root, TempFiles.DELETING + "mine"), root.resolve("target"));

        var removed = TempFiles.removeStale(root);

        assertThat(removed).extracting(TempFiles.Removed::path).containsExactlyInAnyOrder(file, deadTempInside);
        assertThat(Files.readSymbolicLink(root.resolve("alias"))).isEqualTo(root.resolve("target"));
        assertThat(Files.readAttributes(root.resolve("fifo"), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther()).isTrue();
        assertThat(Files.readAttributes(root.resolve("sock"), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther()).isTrue();
        assertThat(root.resolve("a-b")).isDirectory().isEmptyDirectory();
        assertThat(link).doesNotExist();
        assertThat(Files.isSymbolicLink(uploadLink)).isTrue();
        assertThat(Files.isSymbolicLink(liveLink)).isTrue();
        try (var left = Files.list(root)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("nothing else aside")
                    .filteredOn(n -> n.contains(TempFiles.DELETING)).containsExactly(liveLink.getFileName().toString());
        }
    }

    /**
     * Where the name was taken since (the server's put-back found it taken, or a client uploaded that name later), the
     * entry stays under the private name, never replacing it, and one warning names both. So does an entry whose name
     * the private name had to cut.
     */
    @Test
    void aPutBackOntoATakenOrCutNameLeavesItAsideAndLogsBothNamesOnce() throws Exception {
        String aside = ".tmp-" + deadOwner() + "-" + TempFiles.DELETING;
        Path fifo = root.resolve(aside + "f-1a");
        mkfifo(fifo);
        Path taken = Files.writeString(root.resolve("f"), "uploaded since");
        // A DELETE of a 300-byte name: its private name keeps the label's first LABEL_MAX_BYTES.
        String cutLabel = TempFiles.fitted(TempFiles.DELETING + "x".repeat(300));
        Path cut = Files.createSymbolicLink(root.resolve(aside + cutLabel.substring(TempFiles.DELETING.length()) + "-2b"),
                root.resolve("target"));
        List<LogRecord> logged;
        try (CapturedLog log = CapturedLog.of(AbandonedAside.class.getName())) {
            assertThat(TempFiles.removeStale(root)).isEmpty();
            logged = log.records();
        }

        assertThat(Files.readAttributes(fifo, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther()).isTrue();
        assertThat(Files.readString(taken)).isEqualTo("uploaded since");
        assertThat(Files.isSymbolicLink(cut)).isTrue();
        assertThat(logged).filteredOn(r -> r.getMessage().contains(fifo.toString())).singleElement()
                .satisfies(r -> assertThat(r.getMessage()).contains(taken.toString(), "its name is taken"));
        assertThat(logged).filteredOn(r -> r.getMessage().contains(cut.toString())).singleElement()
                .satisfies(r -> assertThat(r.getMessage()).contains("cut"));
        assertThat(logged).hasSize(2).allMatch(r -> r.getLevel() == Level.WARNING);
    }

    private static void mkfifo(Path p) throws Exception {
        assertThat(new ProcessBuilder("mkfifo", p.toString()).start().waitFor()).isZero();
    }

    /**
     * A client's file named {@code tmp-…} has a record {@code .tmp-….crc32c}, which starts like a temp name: the sweep
     * took it for one, an old-pattern temp (after an hour) or a dead owner's ({@code tmp-<pid>.<millis>-…}), and the
     * file was hashed again on its next download. No temp name ends in {@code .crc32c} (they end in hex digits).
     */
    @Test
    void recordsOfFilesNamedLikeTempFilesAreNotTempFiles() throws Exception {
        String[] names = {"tmp-notes.bin", "tmp-" + deadOwner() + "-up.bin"};
        DataDirectory data = new DataDirectory(root);
        for (String name : names) {
            Files.writeString(root.resolve(name), "a client's file");
            data.existing(name);
            Path record = root.resolve(ChecksumRecordName.of(name));
            Files.setLastModifiedTime(record, FileTime.from(Instant.now().minus(TempFiles.LEGACY_AGE).minusSeconds(60)));
        }
        data.close();

        assertThat(TempFiles.removeStale(root)).isEmpty();
        assertThat(TempFiles.removeStale(root, "up.bin")).isEmpty();
        for (String name : names) {
            assertThat(root.resolve(ChecksumRecordName.of(name))).exists();
        }
    }

    /** What a killed run of any program left while making one file: the next run making it removes that, only that. */
    @Test
    void aGeneratorRemovesWhatADeadOneLeftForTheSameFile() throws Exception {
        String deadOwner = deadOwner();
        String owner = ".tmp-" + deadOwner;
        Path partial = Files.write(root.resolve(owner + "-xferbench-4096.dat-1a"), new byte[100]);
        Path otherFile = Files.createFile(root.resolve(owner + "-xferbench-8192.dat-2b"));
        Path live = Files.createFile(TempFiles.next(root, "xferbench-4096.dat"));
        Path deeper = Files.createFile(Files.createDirectories(root.resolve("sub")).resolve(owner + "-xferbench-4096.dat-3c"));

        var removed = TempFiles.removeStale(root, "xferbench-4096.dat");

        assertThat(removed).extracting(TempFiles.Removed::path).containsExactly(partial);
        assertThat(otherFile).exists();
        assertThat(live).exists();
        assertThat(deeper).exists();
    }

    @Test
    void generatingAFileRemovesADeadGeneratorsPartialCopy() throws Exception {
        String deadOwner = deadOwner();
        Path partial = Files.write(root.resolve(".tmp-" + deadOwner + "-xferbench-4096.dat-1a"), new byte[100]);

        TestFile file = new DataDirectory(root).generated(4096);

        assertThat(file.size()).isEqualTo(4096);
        assertThat(partial).doesNotExist();
    }

    /**
     * Any label a client name can be (up to NAME_MAX bytes, multi-byte UTF-8 too) gives a temp name the file system
     * takes: at most 255 bytes, cut at a whole character, still the owner's and starting with the label.
     */
    @Test
    void tempNamesStayWithinNameMaxWhateverTheLabel() throws Exception {
        String ownedByMe = "\\.tmp-" + ProcessHandle.current().pid() + "\\.\\d+-.+";
        String[] labels = {"up.bin", "a".repeat(255), "\u00e9".repeat(127), "\u20ac".repeat(85), "\ud83d\ude00".repeat(63) + "abc"};
        for (String label : labels) {
            Path tmp = Files.createFile(TempFiles.next(root, label));
            String name = tmp.getFileName().toString();
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            assertThat(bytes.length).as(name).isLessThanOrEqualTo(255);
            assertThat(new String(bytes, StandardCharsets.UTF_8)).as("no character cut in half").isEqualTo(name);
            assertThat(name).matches(ownedByMe).contains("-" + label.substring(0, 2));
        }
        assertThat(TempFiles.next(root, "up.bin").getFileName().toString()).as("a short label whole").contains("-up.bin-");

        // A dead run's temp file for the same long label is found by that label, cut the same way.
        String label = "\u20ac".repeat(85);
        String mine = TempFiles.next(root, label).getFileName().toString();
        Path dead = Files.createFile(root.resolve(mine.replaceFirst("^\\.tmp-\\d+\\.\\d+-", ".tmp-" + deadOwner() + "-")));
        assertThat(TempFiles.removeStale(root, label)).extracting(TempFiles.Removed::path).containsExactly(dead);
    }

    /** The owner part of a temp name ({@code <pid>.<start-millis>}) of a process that has exited. */
    private static String deadOwner() throws Exception {
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        return dead.pid() + "." + dead.toHandle().info().startInstant().map(Instant::toEpochMilli).orElse(1L);
    }
}
