package io.xferbench.core.testing;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What this JVM holds right now, for leak checks: open fds (sockets, files, pipes), threads, memory mappings
 * and direct buffers.
 */
public record ProcessResources(long fds, long pipes, long sockets, int threads, long mappings, long directBuffers) {

    public static ProcessResources sample() throws IOException {
        long fds = 0;
        long pipes = 0;
        long sockets = 0;
        try (Stream<Path> list = Files.list(Path.of("/proc/self/fd"))) {
            for (Path p : (Iterable<Path>) list::iterator) {
                fds++;
                try {
                    String target = Files.readSymbolicLink(p).toString();
                    pipes += target.startsWith("pipe:") ? 1 : 0;
                    sockets += target.startsWith("socket:") ? 1 : 0;
                } catch (IOException ignored) {
                    // The fd closed while we looked (the listing's own fd, say).
                }
            }
        }
        long mappings;
        try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
            mappings = maps.count();
        }
        long direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(b -> b.getName().equals("direct") || b.getName().equals("mapped"))
                .mapToLong(BufferPoolMXBean::getCount).sum();
        return new ProcessResources(fds, pipes, sockets, Thread.activeCount(), mappings, direct);
    }
}
