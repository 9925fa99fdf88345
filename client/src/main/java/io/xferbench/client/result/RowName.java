package io.xferbench.client.result;

import io.xferbench.core.Sizes;

/** A row as messages name it: direction, proxy scenario, method (with its relay buffer) and size. */
public final class RowName {
    private RowName() {
    }

    /** {@code download transfer-to 64MiB}, {@code proxy copy 0 (small)}: a proxy row says its scenario, its only difference. */
    public static String of(MethodResult r) {
        MethodResult.Row row = r.row();
        return DirectionJson.name(row.direction()) + " " + r.label() + " " + Sizes.format(row.size())
                + (row.scenario() == null ? "" : " (" + row.scenario().id() + ")");
    }
}
