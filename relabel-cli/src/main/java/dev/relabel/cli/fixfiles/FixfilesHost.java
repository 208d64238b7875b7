package dev.relabel.cli.fixfiles;

import dev.relabel.cli.common.Failure;
import dev.relabel.cli.setfiles.PathLabeller;
import dev.relabel.policy.PathBytes;
import dev.relabel.policy.Selinuxfs;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The system the fixfiles verbs act on: the real one ({@code /}), or one installed under another
 * root ({@code --root}: an image being built, or a test's scratch tree). Every file fixfiles reads
 * or writes is taken under that root ({@code /etc/selinux/fixfiles_exclude_dirs},
 * {@code /.autorelabel}, {@code /tmp}, {@code /var/tmp}, {@code /sys/fs/selinux}); the mounts are
 * the running kernel's, those at or below the root; labels are looked up as if the root were
 * {@code /} (setfiles' {@code -r}).
 *
 * @param root the root, absolute and normalized
 * @param mountinfo the running kernel's {@code /proc/self/mountinfo}
 */
public record FixfilesHost(String root, String mountinfo) {
  static final String EXCLUDE_DIRS = "/etc/selinux/fixfiles_exclude_dirs";

  /** The system under {@code root} ("/" for the real one); fails when it is not a directory. */
  static FixfilesHost of(String root, Charset charset) throws IOException {
    Path path = PathBytes.path(root).toAbsolutePath().normalize();
    if (!Files.isDirectory(path)) {
      throw new Failure("--root " + root + ": not a directory");
    }
    String mountinfo = new String(Files.readAllBytes(Path.of("/proc/self/mountinfo")), charset);
    return new FixfilesHost(PathBytes.text(path), mountinfo);
  }

  boolean isRealRoot() {
    return root.equals("/");
  }

  /** Where the system's absolute path {@code path} is: under the root. */
  String real(String path) {
    return isRealRoot() ? path : path.equals("/") ? root : root + path;
  }

  /** The system's path of {@code real}, a path at or below the root: as the system sees it. */
  String system(String real) {
    return isRealRoot() ? real : real.equals(root) ? "/" : real.substring(root.length());
  }

  public Path file(String path) {
    return PathBytes.path(real(path));
  }

  /** The labelled filesystems at or below the root. */
  LabelledMounts mounts() {
    return LabelledMounts.of(mountinfo, root);
  }

  /**
   * The system's selinuxfs, under the root: an image has none, and so counts as not enabled, as
   * {@code selinuxenabled} would say inside it.
   */
  public Selinuxfs selinuxfs() {
    return new Selinuxfs(file(Selinuxfs.MOUNT_POINT));
  }

  /**
   * fixfiles' {@code exclude_dirs_from_relabelling}: the lines of
   * {@code /etc/selinux/fixfiles_exclude_dirs} that are absolute paths of directories (blank lines,
   * comments and anything else skipped), as real paths.
   */
  List<String> excludedDirectories() throws IOException {
    Path file = file(EXCLUDE_DIRS);
    List<String> directories = new ArrayList<>();
    if (!Files.exists(file)) {
      return directories;
    }
    // decoded as arguments are (PathBytes.charset()): a name is its bytes, whatever the locale
    for (String line : new String(Files.readAllBytes(file), PathBytes.charset()).split("\n")) {
      String entry = line.strip(); // bash's read trims the IFS whitespace around the line
      if (entry.isEmpty() || entry.startsWith("#") || !entry.startsWith("/")) {
        continue;
      }
      String real = real(PathLabeller.stripTrailingSlashes(entry));
      if (Files.isDirectory(PathBytes.path(real))) {
        directories.add(real);
      }
    }
    return directories;
  }

  /** When the running system booted: {@code btime} of {@code /proc/stat}. */
  static Instant bootTime() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
      if (line.startsWith("btime ")) {
        return Instant.ofEpochSecond(Long.parseLong(line.substring("btime ".length()).strip()));
      }
    }
    throw new Failure("/proc/stat has no btime: cannot tell when the system booted");
  }
}
