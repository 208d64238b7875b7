package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import dev.relabel.policy.Selinuxfs;
import dev.relabel.policy.SmallFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The mount table, {@code /proc/self/mountinfo}: which mount points cannot hold labels, and what
 * each mount shows of which filesystem (for {@link BoundTwice}).
 */
final class MountTable {
  private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

  /**
   * One line of mountinfo, its paths one char per byte.
   *
   * @param device the filesystem's {@code major:minor}, as mountinfo writes it
   * @param root the directory of that filesystem the mount shows, from the filesystem's root
   * @param point where it is mounted
   * @param seclabel whether its options say {@code seclabel}
   */
  record Mount(String device, String root, String point, boolean seclabel) {}

  private MountTable() {}

  /** This process's mount table, one char per byte; empty when it cannot be read. */
  static String text() {
    try {
      return new String(SmallFile.read(MOUNTINFO), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * The mount points to skip as libselinux's {@code exclude_non_seclabel_mounts} skips them: those
   * without {@code seclabel}, and only when SELinux is enabled; otherwise none.
   */
  static List<String> mountsWithoutSeclabel() {
    if (!Selinuxfs.system().enabled()) {
      return List.of();
    }
    return withoutSeclabel(parse(text()));
  }

  /** The mount points among {@code mounts} whose options lack {@code seclabel}. */
  static List<String> withoutSeclabel(List<Mount> mounts) {
    List<String> points = new ArrayList<>();
    for (Mount mount : mounts) {
      if (!mount.seclabel()) {
        points.add(mount.point());
      }
    }
    return points;
  }

  /**
   * The mounts of a mountinfo text, in its order (a later one at the same point covers an
   * earlier); a line it cannot read is left out.
   */
  static List<Mount> parse(String mountinfo) {
    List<Mount> mounts = new ArrayList<>();
    for (String line : mountinfo.split("\n")) {
      String[] fields = line.split(" ");
      int separator = List.of(fields).indexOf("-");
      if (fields.length < 6 || separator < 0 || separator + 3 >= fields.length) {
        continue;
      }
      String options = fields[5] + "," + fields[separator + 3];
      boolean seclabel = List.of(options.split(",")).contains("seclabel");
      mounts.add(new Mount(fields[2], path(fields[3]), path(fields[4]), seclabel));
    }
    return mounts;
  }

  /** A path field as the walk spells paths: mountinfo's escapes undone, one char per byte. */
  private static String path(String field) {
    return PathBytes.latin1(unescape(field).getBytes(StandardCharsets.ISO_8859_1));
  }

  /** mountinfo escapes space, tab, newline and backslash as \\ooo. */
  private static String unescape(String field) {
    StringBuilder out = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && i + 3 < field.length()) {
        try {
          out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
          i += 3;
          continue;
        } catch (NumberFormatException e) {
          // not an escape: keep the backslash
        }
      }
      out.append(c);
    }
    return out.toString();
  }
}
