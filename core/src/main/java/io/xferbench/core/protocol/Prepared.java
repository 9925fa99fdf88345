package io.xferbench.core.protocol;

/**
 * The answer to PREPARE: the file's page-cache residency as found and as left for the transfer that follows.
 *
 * @param residencyFoundPermille residency before preparing (after the previous transfer), 0..1000, -1 unknown
 * @param residencyPermille      residency after preparing (what the next transfer starts from), 0..1000, -1 unknown
 * @param nanos                  the server's time spent preparing (generation of the file included, if it happened)
 */
public record Prepared(int residencyFoundPermille, int residencyPermille, long nanos) {
}
