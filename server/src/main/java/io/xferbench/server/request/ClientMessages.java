package io.xferbench.server.request;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What a client is told of a failure: files named relative to the data directory, never by the server's absolute
 * layout. The JDK's file-system exceptions name the path they were given, which the server builds from the data
 * directory's real path ({@code /srv/data/base/x: Not a directory} becomes {@code base/x: Not a directory}). Every
 * answer that carries an exception's text takes it from here.
 */
public final class ClientMessages {
    private ClientMessages() {
    }

    /** The message of {@code e}, told relative to {@code root}. */
    public static String of(Throwable e, Path root) {
        String message = e.getMessage();
        if (e instanceof FileSystemException f && f.getReason() == null) {
            String reason = reason(f);
            if (reason != null) {
                message += ": " + reason;
            }
        }
        return relative(message, root);
    }

    /**
     * Why {@code e} failed, for an answer that names the file its own way (HTTP's {@code /NAME: why}): its reason, or
     * what its type says where the JDK left the reason out, as it does where the errno said it (ENOENT, EACCES):
     * "locked/f: null" told nothing. Never null for {@link NoSuchFileException} and {@link AccessDeniedException}.
     */
    public static String reason(FileSystemException e) {
        if (e.getReason() != null) {
            return e.getReason();
        }
        return switch (e) {
            case NoSuchFileException n -> "no such file or directory";
            case AccessDeniedException a -> "permission denied";
            default -> null;
        };
    }

    /**
     * {@code text} with every path inside {@code root} relative to it, and {@code root} itself as ".". A path counts
     * where it starts a word (the text's start, after a space, a colon, a quote or a bracket) and {@code root} ends at
     * a separator or at the word's end: {@code /srv/data2} and a client's own {@code a/srv/data} stay as they are.
     */
    public static String relative(String text, Path root) {
        String dir = root.toString();
        if (text == null || root.getNameCount() == 0 || !text.contains(dir)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        for (int at = text.indexOf(dir); at >= 0; at = text.indexOf(dir, Math.max(at + 1, copied))) {
            if (at > 0 && !startsWord(text.charAt(at - 1))) {
                continue;
            }
            int end = at + dir.length();
            boolean slash = end < text.length() && text.charAt(end) == '/';
            int after = slash ? end + 1 : end;
            if (!slash && after < text.length() && !endsWord(text.charAt(after))) {
                continue;
            }
            out.append(text, copied, at);
            if (after == text.length() || endsWord(text.charAt(after))) {
                out.append('.');
            }
            copied = after;
        }
        return out.append(text, copied, text.length()).toString();
    }

    private static boolean startsWord(char c) {
        return Character.isWhitespace(c) || ":([{'\"=,<>".indexOf(c) >= 0;
    }

    private static boolean endsWord(char c) {
        return Character.isWhitespace(c) || ":)]}'\",;<>".indexOf(c) >= 0;
    }
}
