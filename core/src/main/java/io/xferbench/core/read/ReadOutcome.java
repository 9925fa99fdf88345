package io.xferbench.core.read;

/**
 * What an engine read: operations, bytes, the {@link BlockDigest} sum over all blocks, and {@code readNanos}, the
 * wall time of the reads themselves: from the moment the engine's readers were set up (threads started, files
 * opened, buffers allocated) to its last completed read. fio's runtime starts after its jobs' setup too.
 */
public record ReadOutcome(long ops, long bytes, long digest, long readNanos) {
}
