package io.xferbench.client.load.exchange;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The download methods the server said ran, by the measured answers naming each: over HTTP its
 * {@code X-Xferbench-Method}; over the native protocol the method asked, which the xferbench server runs or refuses.
 * An answer that named none (nginx, a refusal, an answer without a body) is not counted: what ran there is unknown.
 */
public record MethodsRun(SortedMap<String, Long> answers) {
    public static final MethodsRun NONE = new MethodsRun(new TreeMap<>());

    public MethodsRun {
        answers = Collections.unmodifiableSortedMap(new TreeMap<>(answers));
    }

    public static MethodsRun of(Map<String, Long> answers) {
        return new MethodsRun(new TreeMap<>(answers));
    }

    public MethodsRun plus(MethodsRun other) {
        TreeMap<String, Long> sum = new TreeMap<>(answers);
        other.answers.forEach((k, v) -> sum.merge(k, v, Long::sum));
        return new MethodsRun(sum);
    }

    /** The one method named, {@code mixed: a, b} when answers named several (netty-auto picks by size), null when none. */
    public String describe() {
        return switch (answers.size()) {
            case 0 -> null;
            case 1 -> answers.firstKey();
            default -> "mixed: " + String.join(", ", answers.keySet());
        };
    }
}
