package io.xferbench.core.data;

import io.xferbench.core.data.DataDirectory.DeletionTarget;
import io.xferbench.nativeio.HeldDirectory;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * DELETE: removes a regular file of a client-supplied name, then its checksum record. It owns what a DELETE may remove
 * and the removal itself: the named entry (a symlink to a regular file inside is removed, as rm(1) does, not its
 * target), never a generated file's name in the directory itself ({@link GeneratedNames}), never a directory or anything
 * else swapped in after the check ({@link AsideUnlink}), and never through a directory swapped for a symlink leading
 * out (the target's directory is reached from the held one). A download that already opened the file goes on sending
 * the whole old file (the unlinked inode stays readable); a later one is NOT_FOUND. A DELETE that finds no file
 * releases what the server still held for a file removed behind its back.
 */
final class Deletions {
    private final ConfinedNames names;
    private final ChecksumRecords records;

    Deletions(ConfinedNames names, ChecksumRecords records) {
        this.names = names;
        this.records = records;
    }

    /**
     * Removes {@code name} (see the class comment).
     *
     * @throws NoSuchFileException if there is none (also when another delete won the race)
     */
    void delete(String name) throws IOException {
        remove(target(name));
    }

    /**
     * {@code name} checked as a DELETE checks it (a regular file, or a symlink to one, inside the directory), and the
     * entry to remove.
     */
    DeletionTarget target(String name) throws IOException {
        Path root = names.root();
        if (name.indexOf('/') < 0) {
            GeneratedNames.refuse(name, name);
        }
        Path real;
        try {
            real = names.resolveExisting(name);
        } catch (NoSuchFileException e) {
            releaseGone(name);
            throw e;
        }
        int slash = name.lastIndexOf('/');
        if (slash < 0) {
            return new DeletionTarget(name, root, name, !real.equals(root.resolve(name)));
        }
        // The final component may be a symlink, whose real path says nothing of where the link itself is.
        Path parent;
        try {
            parent = root.resolve(name.substring(0, slash)).toRealPath();
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name, null, "no such file in the data directory");
        }
        if (!parent.startsWith(root)) {
            throw new AccessDeniedException(name, null, "resolves outside the data directory");
        }
        if (names.reserved(parent)) {
            throw new AccessDeniedException(name, null, "resolves to a hidden name, reserved for the server");
        }
        String last = name.substring(slash + 1);
        // A directory leading back to the data directory itself (a symlink to it) names a generated file too.
        if (parent.equals(root)) {
            GeneratedNames.refuse(name, last);
        }
        return new DeletionTarget(name, parent, last, !real.equals(parent.resolve(last)));
    }

    /**
     * Removes the target, then forgets and unlinks its checksum record, in the target's directory reached once from the
     * held one through directories not followed ({@link HeldDirectory}): by path, a directory on the way swapped for a
     * symlink leading out had the file out there removed. The target is moved to a private name first and removed only
     * if what was moved is what the check found, a regular file (or a symlink where one was checked), else it is moved
     * back ({@link AsideUnlink}): unlinkat(2) refuses only a directory, so a FIFO, socket or symlink swapped in at the
     * name after the check went with it. A different regular file there by then (an upload placed meanwhile) is removed:
     * a DELETE removes what the name is when it acts, as rm(1) does.
     *
     * @throws AccessDeniedException "not a regular file" where anything else is there now (left as it is), the answer a
     *                               directory or FIFO named in a DELETE gets; or a directory on the way is no longer one
     */
    void remove(DeletionTarget target) throws IOException {
        // The directories are walked from the held descriptor: its path must still lead there, where the checks looked.
        names.checkRootUnmoved();
        try (HeldDirectory dir = HeldDirectory.beneath(names.directoryFd(), names.directoriesOf(target.parent()), target.name())) {
            AsideUnlink.remove(dir, target.parent(), target.last(), target.link(), target.name());
            records.forget(target.path());
            ChecksumRecords.unlink(dir.fd(), target.path());
        }
    }

    /**
     * What the server still holds for a name whose file was removed behind its back (rm, mv): the remembered record
     * with its pinned inode, whose blocks stay allocated while it is held, and the record file. A DELETE that finds no
     * file releases them, where they waited for the cache to start over or the next start's sweep. Best effort, and
     * only while the name is still absent: a file placed meanwhile loses at most its record (a re-hash).
     */
    private void releaseGone(String name) {
        Path target;
        try {
            target = names.resolveNew(name);
        } catch (IOException | RuntimeException e) {
            return;
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        records.forget(target);
        try {
            names.checkRootUnmoved();
            records.unlink(names.directoriesOf(target.getParent()), target);
        } catch (IOException e) {
            // Swept at the next start.
        }
    }
}
