package io.xferbench.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@link MemoryCgroup} works against: the memory hierarchy found in mountinfo, the /proc that tells a process's
 * groups, and how a group's directory is made and removed. {@link #system()} is this machine's; tests pass a temp
 * directory laid out like /sys/fs/cgroup (v2) or /sys/fs/cgroup/memory (v1), mountinfo lines naming it, and
 * {@link GroupDirectories} that do what the kernel does on mkdir and rmdir.
 */
public record CgroupHost(MemoryHierarchy.Detection detection, Path proc, GroupDirectories directories) {

    /** The two operations where cgroupfs is not a plain directory. */
    public interface GroupDirectories {
        /** mkdir(2) of a group: the kernel fills it with its control files (memory.max, cgroup.procs, ...). */
        void make(Path group) throws IOException;

        /**
         * rmdir(2) of a group: removes it with its control files; the kernel refuses (EBUSY) while a process is in
         * it. Nothing to do when it is gone already.
         */
        void remove(Path group) throws IOException;
    }

    /** cgroupfs itself: plain mkdir and rmdir, the kernel does the rest. */
    public static final GroupDirectories KERNEL = new GroupDirectories() {
        @Override
        public void make(Path group) throws IOException {
            Files.createDirectory(group);
        }

        @Override
        public void remove(Path group) throws IOException {
            Files.deleteIfExists(group); // rmdir: cgroupfs takes the control files along
        }
    };

    /** This machine: /proc/self/mountinfo, /proc and cgroupfs. */
    public static CgroupHost system() {
        return new CgroupHost(MemoryHierarchy.detect(), Path.of("/proc"), KERNEL);
    }
}
