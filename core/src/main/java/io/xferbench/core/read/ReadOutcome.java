package io.xferbench.core.read;

/** What an engine read: operations, bytes and the {@link BlockDigest} sum over all blocks. */
public record ReadOutcome(long ops, long bytes, long digest) {
}
