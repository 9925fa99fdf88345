package io.xferbench.core.protocol;

/**
 * The answer to STAT: whether a regular file of that name exists in the data directory, and its size and
 * modification time (both 0 when it does not).
 */
public record FileStat(boolean exists, long size, long mtimeNanos) {
    public static final FileStat ABSENT = new FileStat(false, 0, 0);
}
