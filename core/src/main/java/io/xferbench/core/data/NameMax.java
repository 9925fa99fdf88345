package io.xferbench.core.data;

/**
 * Linux's longest name of one directory entry (NAME_MAX, in bytes), and how the server cuts a name it derives from a
 * client's (a temp file's label, a checksum record's) so that its own name still fits.
 */
final class NameMax {
    /** Bytes, not characters: a longer name is ENAMETOOLONG. */
    static final int BYTES = 255;

    private NameMax() {
    }

    /** The longest start of {@code s}, of whole characters, within {@code maxBytes} UTF-8 bytes ({@code s} if it fits). */
    static String cut(String s, int maxBytes) {
        // A char is at most 3 UTF-8 bytes (a surrogate pair 4 for two): most names pass without being encoded.
        if (s.length() * 3 <= maxBytes) {
            return s;
        }
        int bytes = 0;
        int end = 0;
        while (end < s.length()) {
            int cp = s.codePointAt(end);
            bytes += utf8Bytes(cp);
            if (bytes > maxBytes) {
                break;
            }
            end += Character.charCount(cp);
        }
        return s.substring(0, end);
    }

    /** Whether {@code s} is at most {@code maxBytes} UTF-8 bytes long. */
    static boolean fits(String s, int maxBytes) {
        return cut(s, maxBytes).length() == s.length();
    }

    private static int utf8Bytes(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
}
