package io.xferbench.core.read;

/** Order of the block reads: the whole span front to back, or seeded random block offsets. */
public enum ReadPattern {
    SEQUENTIAL, RANDOM
}
