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
 * Mount points that cannot hold labels. Like libselinux's {@code exclude_non_seclabel_mounts}, this
 * only applies when SELinux is enabled: then a mount without the {@code seclabel} option is skipped.
 */
final class MountTable {
  private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

  private MountTable() {}

  /** The mount points (one char per byte) to skip; empty when SELinux is not enabled. */
  static List<String> mountsWithoutSeclabel() {
    if (!Selinuxfs.system().enabled()) {
      return List.of();
    }
    try {
      return withoutSeclabel(new String(SmallFile.read(MOUNTINFO), StandardCharsets.ISO_8859_1));
    } catch (IOException e) {
      return List.of();
    }
  }

  /** The mount points of a {@code mountinfo} text whose options lack {@code seclabel}. */
  static List<String> withoutSeclabel(String mountinfo) {
    List<String> points = new ArrayList<>();
    for (String line : mountinfo.split("\n")) {
      String[] fields = line.split(" ");
      int separator = List.of(fields).indexOf("-");
      if (fields.length < 6 || separator < 0 || separator + 3 >= fields.length) {
        continue;
      }
      String options = fields[5] + "," + fields[separator + 3];
      if (!List.of(options.split(",")).contains("seclabel")) {
        points.add(PathBytes.latin1(unescape(fields[4]).getBytes(StandardCharsets.ISO_8859_1)));
      }
    }
    return points;
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
