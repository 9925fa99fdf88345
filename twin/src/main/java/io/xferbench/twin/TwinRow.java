package io.xferbench.twin;

import java.util.List;

/**
 * One method's measurements: MiB/s of each side round by round, Java/C within each round, CPU per GiB.
 *
 * @param length bytes per send (a method that refuses the whole file sends a prefix, both sides alike)
 * @param note   why only a prefix was sent, or why the method was skipped; empty otherwise
 * @param versus the reference C sends made in the same rounds ({@code --versus}), or null
 */
record TwinRow(String method, String twinMode, long length, String note, Stats java, Stats c, List<Double> pairRatios,
               SenderCpu javaCpu, SenderCpu cCpu, Versus versus) {

    /**
     * A third send in every round, by another C mode (C sendfile, say), so a method is compared with the fastest
     * plain path under the same load as its own twin, not with a row measured minutes earlier.
     *
     * @param pairRatios Java / reference within each round
     */
    record Versus(String mode, Stats mibPerSecond, List<Double> pairRatios) {
    }

    static TwinRow skipped(String method, String twinMode, String reason) {
        return new TwinRow(method, twinMode, 0, "skipped: " + reason, Stats.of(List.of()), Stats.of(List.of()), List.of(), null, null,
                null);
    }

    boolean measured() {
        return java.n() > 0;
    }
}
