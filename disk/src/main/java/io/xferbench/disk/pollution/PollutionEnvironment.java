package io.xferbench.disk.pollution;

import io.xferbench.core.Sizes;
import io.xferbench.disk.BlockDevice;
import io.xferbench.disk.MemoryCgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** How every number of a run was obtained: the machine, the cgroup, the sizes and the measuring method. */
final class PollutionEnvironment {
    private PollutionEnvironment() {
    }

    static Map<String, String> describe(PollutionOptions o, Path dir, BlockDevice device, MemoryCgroup group,
                                        CpuPlacement cpus, String serverMethod) throws IOException {
        Map<String, String> e = new LinkedHashMap<>();
        e.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        e.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        e.put("fileSystem", Files.getFileStore(dir).type() + " on " + device.name() + " (" + device.majorMinor()
                + "), scheduler " + device.scheduler() + ", files in " + dir);
        e.put("cgroup", group.version() + " = " + Sizes.format(group.limitBytes()) + " (" + group.dir()
                + ", read back: " + Sizes.format(group.enforcedLimitBytes()) + "): the server and every big reader "
                + "checked members (/proc/PID/cgroup); the hot set and the big file evicted and checked uncached "
                + "(mincore) before each mode, so their page cache is charged to the group");
        e.put("hotSet", o.hotFiles + " files x " + Sizes.format(o.hotFileSize) + " = "
                + Sizes.format(o.hotFiles * o.hotFileSize));
        e.put("server", "xferbench server (ServerMain) in a child JVM " + CgroupJvm.FLAGS + " inside the cgroup, "
                + "HTTP GET ?method=" + serverMethod);
        e.put("clients", o.connections + " kept-alive HTTP/1.1 connections outside the cgroup, " + o.hotRate
                + " requests/s in all (each hot file re-read every " + String.format(java.util.Locale.ROOT, "%.1f",
                (double) o.hotFiles / o.hotRate) + " s on average), uniformly random hot file; ok = status 200 and "
                + "Content-Length bytes of body");
        e.put("bigFile", Sizes.format(o.bigSize) + " read sequentially in " + Sizes.format(o.blockSize)
                + " blocks by a child JVM inside the cgroup, pass after pass until the during window holds "
                + o.minWindowRequests + " hot requests (at most " + o.maxPasses + " passes), each pass checked "
                + "against its expected BlockDigest");
        e.put("residency", "mincore(2) over every hot file, sampled every "
                + HotSetSampler.PERIOD_NANOS / 1_000_000 + " ms from outside the cgroup (vmtouch's method); at the "
                + "read's end also " + (VmTouch.path() == null ? "vmtouch: not installed" : VmTouch.path()));
        e.put("phases", "before = " + o.before.toMillis() / 1000.0 + " s and on until " + o.minWindowRequests
                + " hot requests; during = the read; after = "
                + o.before.toMillis() / 1000.0 + " s from its end; recovery = residency and req/s within "
                + Math.round(o.tolerance * 100) + "% of before, capped at " + o.recoverCap.toMillis() / 1000.0 + " s");
        e.put("cpus", cpus.describe());
        e.put("deviceReads", "/sys/block/" + device.name() + "/stat fields 1 and 3, the whole device's");
        return e;
    }
}
