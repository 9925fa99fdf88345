package io.xferbench.twin;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code key=value} fields of a result line (drain, TwinSend, C twin); {@code error=} takes the rest of the line. */
final class ResultFields {
    private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

    private ResultFields() {
    }

    static Map<String, String> of(String line) {
        Map<String, String> f = new LinkedHashMap<>();
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            f.put(m.group(1), m.group(2));
        }
        if (line.contains("error=")) {
            f.put("error", line.substring(line.indexOf("error=") + 6));
        }
        return f;
    }
}
