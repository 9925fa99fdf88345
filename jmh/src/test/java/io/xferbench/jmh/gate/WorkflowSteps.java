package io.xferbench.jmh.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The jobs and steps of a GitHub Actions workflow, read line by line (no YAML library is on this build's class path):
 * enough for the block style the example workflow is written in: top-level {@code env:}, {@code jobs:} with
 * two-space indentation, steps as {@code - } items with {@code name}, {@code uses}, {@code run} (inline or {@code |}
 * block) and {@code with} keys. Anything else in a step is kept as a plain key: value.
 */
record WorkflowSteps(Map<String, String> env, Map<String, List<Step>> jobs) {

    /** One step: {@code run} is null for a {@code uses:} step; {@code with} holds that step's inputs. */
    record Step(String name, String uses, String run, Map<String, String> with, Map<String, String> keys) {
    }

    static WorkflowSteps parse(String yaml) {
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, List<Step>> jobs = new LinkedHashMap<>();
        List<String> lines = yaml.lines().toList();
        String section = "";
        String job = null;
        StepBuilder step = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String text = line.strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            int indent = line.length() - line.stripLeading().length();
            if (indent == 0) {
                section = text.endsWith(":") ? text.substring(0, text.length() - 1) : "";
                continue;
            }
            if (section.equals("env") && indent == 2) {
                env.put(key(text), value(text));
            } else if (section.equals("jobs") && indent == 2) {
                finish(step, jobs, job);
                step = null;
                job = key(text);
                jobs.put(job, new ArrayList<>());
            } else if (section.equals("jobs") && indent == 6 && text.startsWith("- ")) {
                finish(step, jobs, job);
                step = new StepBuilder();
                i = step.add(text.substring(2), lines, i, 8);
            } else if (section.equals("jobs") && indent == 8 && step != null) {
                i = step.add(text, lines, i, 8);
            } else if (section.equals("jobs") && indent == 10 && step != null && step.inWith) {
                i = step.addWith(text, lines, i);
            }
        }
        finish(step, jobs, job);
        return new WorkflowSteps(env, jobs);
    }

    private static void finish(StepBuilder step, Map<String, List<Step>> jobs, String job) {
        if (step != null) {
            jobs.get(job).add(step.build());
        }
    }

    private static String key(String text) {
        return text.substring(0, text.indexOf(':')).strip();
    }

    private static String value(String text) {
        String v = text.substring(text.indexOf(':') + 1).strip();
        return v.length() >= 2 && (v.startsWith("'") && v.endsWith("'") || v.startsWith("\"") && v.endsWith("\""))
                ? v.substring(1, v.length() - 1) : v;
    }

    /**
     * Appends the lines of a {@code |} block after line {@code i} (those more indented than {@code keyIndent}),
     * de-indented, to {@code out}; returns the index of its last line.
     */
    private static int block(List<String> lines, int i, int keyIndent, StringBuilder out) {
        int j = i + 1;
        int strip = -1;
        for (; j < lines.size(); j++) {
            String l = lines.get(j);
            int ind = l.length() - l.stripLeading().length();
            if (!l.isBlank() && ind <= keyIndent) {
                break;
            }
            if (strip < 0 && !l.isBlank()) {
                strip = ind;
            }
            out.append(l.isBlank() ? "" : l.substring(Math.min(strip, ind))).append('\n');
        }
        return j - 1;
    }

    private static final class StepBuilder {
        String name;
        String uses;
        String run;
        final Map<String, String> with = new LinkedHashMap<>();
        final Map<String, String> keys = new LinkedHashMap<>();
        boolean inWith;

        int add(String text, List<String> lines, int i, int keyIndent) {
            String k = key(text);
            String v = value(text);
            inWith = k.equals("with");
            if (v.equals("|")) {
                StringBuilder b = new StringBuilder();
                i = block(lines, i, keyIndent, b);
                v = b.toString();
            }
            switch (k) {
                case "name" -> name = v;
                case "uses" -> uses = v;
                case "run" -> run = v;
                case "with" -> { }
                default -> keys.put(k, v);
            }
            return i;
        }

        int addWith(String text, List<String> lines, int i) {
            String v = value(text);
            if (v.equals("|")) {
                StringBuilder b = new StringBuilder();
                i = block(lines, i, 10, b);
                v = b.toString();
            }
            with.put(key(text), v);
            return i;
        }

        Step build() {
            return new Step(name, uses, run, with, keys);
        }
    }
}
