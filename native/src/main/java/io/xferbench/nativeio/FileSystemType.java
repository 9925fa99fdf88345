package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Names the file system a path lives on, for messages such as "ramfs refuses O_DIRECT". The mount table
 * (matched by device number) gives the exact name; statfs's f_type magic is the fallback, since ext2/3/4
 * share one magic and btrfs subvolumes have device numbers the mount table does not list.
 */
final class FileSystemType {
    /** f_type magics from linux/magic.h (and a few out-of-tree file systems). */
    private static final Map<Long, String> MAGICS = Map.ofEntries(
            Map.entry(0xEF53L, "ext2/ext3/ext4"), Map.entry(0x58465342L, "xfs"), Map.entry(0x9123683EL, "btrfs"),
            Map.entry(0x01021994L, "tmpfs"), Map.entry(0x858458F6L, "ramfs"), Map.entry(0x794C7630L, "overlayfs"),
            Map.entry(0xF2F52010L, "f2fs"), Map.entry(0xCA451A4EL, "bcachefs"), Map.entry(0x2FC12FC1L, "zfs"),
            Map.entry(0x6969L, "nfs"), Map.entry(0xFF534D42L, "cifs"), Map.entry(0xFE534D42L, "smb2"),
            Map.entry(0x65735546L, "fuse"), Map.entry(0x01021997L, "9p"), Map.entry(0x00C36400L, "ceph"),
            Map.entry(0x73717368L, "squashfs"), Map.entry(0xE0F5E1E2L, "erofs"), Map.entry(0x9FA0L, "proc"),
            Map.entry(0x62656572L, "sysfs"), Map.entry(0x1CD1L, "devpts"), Map.entry(0x4D44L, "vfat"),
            Map.entry(0x2011BAB0L, "exfat"), Map.entry(0x5346544EL, "ntfs"), Map.entry(0x9660L, "iso9660"));

    private FileSystemType() {
    }

    /**
     * "ramfs (f_type 0x858458f6)" for {@code path}, or for its nearest existing ancestor when it does not exist.
     * Never throws: this runs while another error is being reported.
     */
    static String of(Path path) {
        Path existing = path.toAbsolutePath();
        while (existing.getParent() != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        long magic;
        try {
            long[] statfs = new long[Libc.STATFS_LONGS];
            Libc.statfs(Libc.path(existing), statfs);
            magic = statfs[Libc.STATFS_TYPE];
        } catch (LastErrorException e) {
            return "unknown (statfs: " + Errno.name(e.getErrorCode()) + ")";
        }
        String name = fromMountTable(existing);
        if (name == null) {
            name = MAGICS.getOrDefault(magic, "unknown");
        }
        return name + " (f_type 0x" + Long.toHexString(magic) + ")";
    }

    /** The fstype field of the /proc/self/mountinfo line whose major:minor is the path's device. */
    private static String fromMountTable(Path path) {
        try {
            Statx st = Statx.of(path, 0);
            String device = st.devMajor() + ":" + st.devMinor();
            List<String> lines = Files.readAllLines(Path.of("/proc/self/mountinfo"));
            for (String line : lines) {
                // "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw": field 3 is the device,
                // the first field after " - " is the file system type.
                String[] fields = line.split(" ");
                int dash = line.indexOf(" - ");
                if (fields.length > 2 && fields[2].equals(device) && dash >= 0) {
                    String rest = line.substring(dash + 3);
                    int space = rest.indexOf(' ');
                    return space < 0 ? rest : rest.substring(0, space);
                }
            }
            return null;
        } catch (LastErrorException | IOException e) {
            return null;
        }
    }
}
