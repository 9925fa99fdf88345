package io.xferbench.client.render;

import io.xferbench.client.result.MethodResult;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.TransferMethod;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.registry.UploadMethods;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A row's "syscalls by name" cell for the text table: the largest counts, plus the syscalls that define the row's
 * method (its {@link MethodTraits#definingSyscalls()}) however small, and the io_uring SQE count only for a method
 * that submits through io_uring (other methods' SQEs are the process's own background work, not the method's).
 */
final class MethodSyscalls {
    /** How many of the largest counts the text table shows (its column would run off a terminal otherwise). */
    static final int LARGEST = 5;

    private MethodSyscalls() {
    }

    /** The row's method as this build's registries declare it; empty for an id they do not know (an older report). */
    static Optional<MethodTraits> traits(MethodResult.Row row) {
        Optional<? extends TransferMethod> method = switch (row.direction()) {
            case DOWNLOAD -> DownloadMethods.byId(row.method());
            case UPLOAD -> UploadMethods.byId(row.method());
            case RELAY -> RelayMethods.byId(row.method());
        };
        return method.map(TransferMethod::traits);
    }

    /** The cell: counts divided by {@code per} (GiB moved, or requests) in {@code format}; why when not counted. */
    static String cell(MethodResult r, double per, String format) {
        MethodResult.Syscalls s = r.syscallCounts();
        if (s.byName() == null) {
            return "n/a: " + s.unavailable();
        }
        Optional<MethodTraits> traits = traits(r.row());
        List<String> defining = traits.map(MethodTraits::definingSyscalls).orElse(List.of());
        List<Map.Entry<String, Long>> sorted = s.byName().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).toList();
        List<Map.Entry<String, Long>> shown = new ArrayList<>(sorted.subList(0, Math.min(LARGEST, sorted.size())));
        sorted.stream().skip(LARGEST).filter(e -> defining.contains(e.getKey())).forEach(shown::add);
        // A defining syscall never called at all is worth seeing too: the method did not do what it claims.
        defining.stream().filter(name -> !s.byName().containsKey(name)).forEach(name -> shown.add(Map.entry(name, 0L)));
        shown.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        String cell = shown.stream().map(e -> e.getKey() + "=" + figure(e.getValue(), per, format))
                .collect(Collectors.joining(" "));
        boolean ioUring = traits.map(MethodTraits::usesIoUring).orElse(false);
        if (ioUring && s.ioUringSubmissions() != null) {
            cell += " (io_uring sqes=" + figure(s.ioUringSubmissions(), per, format) + ")";
        }
        return cell;
    }

    /**
     * {@code count / per} in {@code format}; a count that rounds to nothing is {@code <0.01} (or {@code <1}): printed as
     * 0.00 it looked like the 0 of a defining syscall never called, which this cell exists to show.
     */
    static String figure(long count, double per, String format) {
        String shown = String.format(Locale.ROOT, format, count / per);
        if (count > 0 && Double.parseDouble(shown) == 0) {
            return "<" + String.format(Locale.ROOT, format, 0.0).replaceFirst("0$", "1");
        }
        return shown;
    }
}
