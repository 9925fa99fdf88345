package io.xferbench.core.data;

import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.Rename;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts back what a dead server's DELETE left under its private name ({@link AsideUnlink}) that is not a regular file: a
 * FIFO, socket, symlink or directory the DELETE was to put back when it was killed, or found its name taken. Hidden
 * there, no client could reach it again. Moved back with {@code renameat2(RENAME_NOREPLACE)} when its name is free, else
 * left and logged with both names: an entry at the name since is never replaced.
 */
final class AbandonedAside {
    private static final Logger LOG = Logger.getLogger(AbandonedAside.class.getName());
    /** {@code .tmp-<owner>-deleting-<name>-<random hex>}: the name is all between the label and the last dash. */
    private static final Pattern ASIDE = Pattern.compile("^\\.tmp-\\d+\\.\\d+-" + TempFiles.DELETING + "(.*)-[0-9a-f]+$");

    private AbandonedAside() {
    }

    /** Moves {@code aside} (a dead owner's private name, not a regular file) back to its name; true if it was. */
    static boolean restore(Path aside) {
        String asideName = aside.getFileName().toString();
        Matcher m = ASIDE.matcher(asideName);
        String name = m.matches() ? m.group(1) : "";
        Path target = aside.resolveSibling(name);
        String why;
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            why = "no name can be read from it";
        } else if ((TempFiles.DELETING + name).getBytes(StandardCharsets.UTF_8).length > TempFiles.LABEL_MAX_BYTES - 4) {
            // TempFiles cuts a label over LABEL_MAX_BYTES at a whole character, leaving it 0 to 3 bytes short of it.
            why = "its name may have been cut to fit the private name";
        } else {
            try (FileChannel dir = FileChannel.open(aside.getParent(), StandardOpenOption.READ)) {
                int fd = Fds.of(dir);
                if (Rename.noReplace(fd, asideName, fd, name, aside.toString())) {
                    LOG.info("put back " + target + ", left as " + aside + " by a DELETE of a server that was killed");
                    return true;
                }
                why = "its name is taken";
            } catch (Rename.NoReplaceUnsupportedException e) {
                why = "this file system cannot rename without replacing";
            } catch (IOException | RuntimeException e) {
                why = e.getMessage();
            }
        }
        LOG.warning(aside + ": left by a DELETE of a server that was killed, not a regular file, not put back to " + target
                + " (" + why + ")");
        return false;
    }
}
