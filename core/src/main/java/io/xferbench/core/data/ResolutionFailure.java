package io.xferbench.core.data;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Optional;

/**
 * Why a client's name could not be resolved to a real path, told in the client's terms. {@code toRealPath} says only
 * ENOENT or ENOTDIR for the whole path, which told too little and sometimes too much: {@code link/x} under a symlink to
 * a directory outside was "absent" or FORBIDDEN by whether {@code x} existed out there, and under a symlink to a file
 * outside "Not a directory". On such a failure only, the name is walked as the kernel walks it (an lstat per
 * component, a symlink's target read and walked in its place, {@code ..} of a real path its parent), and judged by the
 * deepest point that exists, as a name that resolves is judged by its real path.
 */
final class ResolutionFailure {
    /** Symlinks followed at most, as Linux's path walk (ELOOP beyond). */
    private static final int MAX_LINKS = 40;

    /** One component to walk; {@code clientPrefix}: the client's components taken with it (0 for a link target's). */
    private record Step(String component, int clientPrefix) {
    }

    private ResolutionFailure() {
    }

    /** Why {@code name} (a checked client name) does not resolve under {@code root} (a real path); see {@link #explain}. */
    static IOException ofName(Path root, String name) {
        return explain(root, name, name.split("/").length);
    }

    /** Why the directory {@code name} would be created in does not resolve under {@code root}; see {@link #explain}. */
    static IOException ofParent(Path root, String name) {
        return explain(root, name, name.split("/").length - 1);
    }

    /**
     * The refusal that explains why the first {@code components} components of {@code name} do not resolve under
     * {@code root}: leaving the directory or entering a hidden name (FORBIDDEN), or a
     * component that is not a directory with more to come ({@code a/b/x: a is not a directory}, naming the client's
     * own prefix); null when what exists stays inside and the walk finds nothing else (absence, a loop, another error):
     * the caller's own answer stands.
     */
    private static IOException explain(Path root, String name, int components) {
        String[] parts = name.split("/");
        Deque<Step> pending = new ArrayDeque<>();
        for (int i = 0; i < components; i++) {
            pending.addLast(new Step(parts[i], i + 1));
        }
        Path at = root;
        boolean atIsDirectory = true;
        int taken = 0;
        int links = 0;
        while (!pending.isEmpty()) {
            if (!atIsDirectory) {
                return refusal(root, at, name).orElse(new FileSystemException(name, null,
                        String.join("/", Arrays.asList(parts).subList(0, taken)) + " is not a directory"));
            }
            Step step = pending.pollFirst();
            if (step.clientPrefix() > 0) {
                taken = step.clientPrefix();
            }
            String c = step.component();
            if (c.isEmpty() || c.equals(".")) {
                continue;
            }
            if (c.equals("..")) {
                at = at.getParent() == null ? at : at.getParent();
                continue;
            }
            Path next = at.resolve(c);
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(next, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException absent) {
                return refusal(root, at, name).orElse(null);
            } catch (IOException e) {
                return null;
            }
            if (!a.isSymbolicLink()) {
                at = next;
                atIsDirectory = a.isDirectory();
                continue;
            }
            if (++links > MAX_LINKS) {
                return null;
            }
            at = follow(next, at, pending);
            if (at == null) {
                return null;
            }
        }
        // Everything exists: the failure was a race, or another error; the caller's answer stands.
        return null;
    }

    /**
     * Puts the components of {@code link}'s target first in {@code pending}, and returns where the walk goes on from:
     * the target's root when it is absolute, else {@code at}; null when the link cannot be read.
     */
    private static Path follow(Path link, Path at, Deque<Step> pending) {
        Path target;
        try {
            target = Files.readSymbolicLink(link);
        } catch (IOException e) {
            return null;
        }
        Deque<Step> linked = new ArrayDeque<>();
        for (Path t : target) {
            linked.addLast(new Step(t.toString(), 0));
        }
        while (!linked.isEmpty()) {
            pending.addFirst(linked.pollLast());
        }
        return target.isAbsolute() ? target.getRoot() : at;
    }

    /** FORBIDDEN when the real path {@code at}, reached by {@code name}, is outside {@code root} or a hidden name in it. */
    private static Optional<IOException> refusal(Path root, Path at, String name) {
        if (!at.startsWith(root)) {
            return Optional.of(new AccessDeniedException(name, null, "resolves outside the data directory"));
        }
        for (Path part : root.relativize(at)) {
            if (part.toString().startsWith(".")) {
                return Optional.of(new AccessDeniedException(name, null, "resolves to a hidden name, reserved for the server"));
            }
        }
        return Optional.empty();
    }
}
