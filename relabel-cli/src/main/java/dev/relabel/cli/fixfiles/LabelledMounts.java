package dev.relabel.cli.fixfiles;

import dev.relabel.policy.PathBytes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The filesystems fixfiles relabels when given no path ({@code get_rw_labeled_mounts} and
 * {@code get_ro_labeled_mounts}), decided from a {@code /proc/self/mountinfo} text.
 *
 * <p>Where the kernel marks mounts with {@code seclabel} (SELinux enabled), a mount is labelled
 * when it has {@code seclabel} and is none of what fixfiles filters out: tmpfs, anything under
 * /sys, devpts, hugetlbfs, mqueue. Where no mount has {@code seclabel} (SELinux not enabled, so
 * the kernel marks none), fixfiles would find nothing; this takes fixfiles' rule for kernels
 * without {@code seclabel} instead, so that a system can be labelled before SELinux is turned on:
 * ext2/3/4, ext4dev, gfs2, xfs, jfs and btrfs mounts without a {@code context=} option.
 *
 * <p>A mount point mounted over more than once counts once, as its topmost mount (the one paths
 * reach). Mount points are sorted bytewise, as fixfiles' {@code sort | uniq} leaves them.
 *
 * @param readWrite the labelled mounts mounted read-write, to relabel
 * @param readOnly the labelled mounts mounted read-only, skipped with a warning
 */
public record LabelledMounts(List<String> readWrite, List<String> readOnly) {
  private static final Set<String> XATTR_TYPES =
      Set.of("ext2", "ext3", "ext4", "ext4dev", "gfs2", "xfs", "jfs", "btrfs");

  public LabelledMounts {
    readWrite = List.copyOf(readWrite);
    readOnly = List.copyOf(readOnly);
  }

  /**
   * One line of mountinfo: where, what type, from which source, with the mount's and the
   * superblock's options; read-only when either is, as /proc/mounts (fixfiles' source) shows it:
   * systemd mounts its credentials ramfs read-only on a read-write superblock.
   */
  public record Mount(String point, String type, String source, List<String> options, boolean readOnly) {
    boolean has(String option) {
      return options.contains(option);
    }
  }

  /**
   * The labelled mounts of {@code mountinfo} at or below {@code root} (absolute, normalized; "/"
   * for the whole system). When no mount point is {@code root} itself, the mount that holds it
   * decides whether {@code root} is labelled, and {@code root} stands for it.
   */
  public static LabelledMounts of(String mountinfo, String root) {
    Map<String, Mount> topmost = new LinkedHashMap<>();
    for (Mount mount : parse(mountinfo)) {
      topmost.remove(mount.point()); // re-insert: the later mount is the one on top
      topmost.put(mount.point(), mount);
    }
    boolean seclabel = topmost.values().stream().anyMatch(m -> m.has("seclabel"));
    Mount holder = null;
    for (Mount mount : topmost.values()) {
      if (isAtOrBelow(root, mount.point()) && (holder == null || mount.point().length() > holder.point().length())) {
        holder = mount;
      }
    }
    TreeSet<String> readWrite = new TreeSet<>(LabelledMounts::compareBytes);
    TreeSet<String> readOnly = new TreeSet<>(LabelledMounts::compareBytes);
    for (Mount mount : topmost.values()) {
      String point;
      if (mount == holder) {
        point = root;
      } else if (isAtOrBelow(mount.point(), root)) {
        point = mount.point();
      } else {
        continue;
      }
      if (!labelled(mount, seclabel)) {
        continue;
      }
      if (mount.readOnly()) {
        readOnly.add(point);
      } else {
        readWrite.add(point);
      }
    }
    return new LabelledMounts(new ArrayList<>(readWrite), new ArrayList<>(readOnly));
  }

  private static boolean labelled(Mount mount, boolean seclabel) {
    if (seclabel) {
      boolean filtered = mount.type().contains("tmpfs") || mount.source().contains("tmpfs")
          || mount.point().startsWith("/sys") || mount.source().startsWith("devpts")
          || mount.source().startsWith("hugetlbfs") || mount.source().startsWith("mqueue");
      return mount.has("seclabel") && !filtered;
    }
    return XATTR_TYPES.contains(mount.type()) && mount.options().stream().noneMatch(o -> o.startsWith("context="));
  }

  /** Whether {@code path} is {@code directory} or lies below it. */
  public static boolean isAtOrBelow(String path, String directory) {
    return path.equals(directory) || directory.equals("/")
        || (path.startsWith(directory) && path.charAt(directory.length()) == '/');
  }

  /** The mounts of a mountinfo text (proc(5)): fields 5 and 6, then type, source and super options after "-". */
  public static List<Mount> parse(String mountinfo) {
    List<Mount> mounts = new ArrayList<>();
    for (String line : mountinfo.split("\n")) {
      String[] fields = line.split(" ");
      int separator = List.of(fields).indexOf("-");
      if (fields.length < 6 || separator < 6 || separator + 3 >= fields.length) {
        continue;
      }
      List<String> mountOptions = List.of(fields[5].split(","));
      List<String> superOptions = List.of(fields[separator + 3].split(","));
      List<String> options = new ArrayList<>(mountOptions);
      options.addAll(superOptions);
      mounts.add(new Mount(unescape(fields[4]), fields[separator + 1], unescape(fields[separator + 2]), options,
          mountOptions.contains("ro") || superOptions.contains("ro")));
    }
    return mounts;
  }

  /** mountinfo writes space, tab, newline and backslash as \ooo. */
  private static String unescape(String field) {
    StringBuilder out = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Mount points in byte order: their bytes as mountinfo holds them (the text was decoded with
   * {@link PathBytes#charset()}; ISO-8859-1 turned every char above U+00FF into '?', so that two
   * mount points named alike but for such chars compared equal, and the set kept one of them).
   */
  private static int compareBytes(String a, String b) {
    return java.util.Arrays.compareUnsigned(a.getBytes(PathBytes.charset()), b.getBytes(PathBytes.charset()));
  }
}
