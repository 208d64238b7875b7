package dev.relabel.cli.fixfiles;

import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.PathBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * What {@code fixfiles relabel} does to /tmp and its kin around the relabel: empty /tmp (when the
 * admin says so), remove stale session directories, and give entries the kernel would call
 * unlabelled the label of their top directory. Never follows a symlink and never crosses into
 * another filesystem (fixfiles' find does; a mount point below /tmp is left alone here).
 */
public final class TmpCleanup {
  private static final Kernel KERNEL = Kernel.linux();

  /** Where the policy's initial contexts are shown when SELinux is enabled. */
  private static final String INITIAL_CONTEXTS = "/sys/fs/selinux/initial_contexts/";

  private final FixfilesHost host;

  TmpCleanup(FixfilesHost host) {
    this.host = host;
  }

  /** fixfiles' {@code find /tmp/ -mindepth 1 -delete}: everything below /tmp. */
  void empty() throws IOException {
    Path tmp = host.file("/tmp");
    if (!Files.isDirectory(tmp, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmp)) {
      for (Path entry : entries) {
        delete(entry, device(tmp));
      }
    }
  }

  /**
   * fixfiles' clean-up after a relabel: {@code rm -rf /tmp/gconfd-* /tmp/pulse-* /tmp/orbit-*};
   * in /tmp, sockets and FIFOs the kernel would call unlabelled are removed; then every entry of
   * /tmp, /var/tmp, /var/run (and /var/lib/debug, with /lib's label) whose type is the policy's
   * unlabelled or file type, or that has no label at all (which the kernel shows as the file
   * type), gets its top directory's label ({@code chcon --reference}).
   */
  void afterRelabel() throws IOException {
    Path tmp = host.file("/tmp");
    if (Files.isDirectory(tmp, LinkOption.NOFOLLOW_LINKS)) {
      try (DirectoryStream<Path> stale = Files.newDirectoryStream(tmp, "{gconfd-,pulse-,orbit-}*")) {
        for (Path entry : stale) {
          delete(entry, device(tmp));
        }
      }
    }
    Set<String> unlabelled = Set.of(initialType("unlabeled", "unlabeled_t"), initialType("file", "file_t"));
    relabelUnlabelled(tmp, tmp, unlabelled, true);
    relabelUnlabelled(host.file("/var/tmp"), host.file("/var/tmp"), unlabelled, false);
    relabelUnlabelled(host.file("/var/run"), host.file("/var/run"), unlabelled, false);
    relabelUnlabelled(host.file("/var/lib/debug"), host.file("/lib"), unlabelled, false);
  }

  /** The type of an initial context, as the running policy shows it; {@code fallback} (refpolicy's) without one. */
  private String initialType(String name, String fallback) {
    try {
      String context = Files.readString(host.file(INITIAL_CONTEXTS + name), StandardCharsets.ISO_8859_1);
      String[] fields = context.replace("\0", "").strip().split(":");
      return fields.length >= 3 ? fields[2] : fallback;
    } catch (IOException e) {
      return fallback;
    }
  }

  private void relabelUnlabelled(Path top, Path reference, Set<String> unlabelled, boolean removeSockets)
      throws IOException {
    if (!Files.isDirectory(top, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    byte[] label = label(reference);
    long device = device(top);
    Files.walkFileTree(top, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        if (device(dir) != device) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        fix(dir, attrs);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        fix(file, attrs);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE; // find goes on too
      }

      private void fix(Path entry, BasicFileAttributes attrs) throws IOException {
        byte[] current = label(entry);
        String type = current == null ? null : typeOf(current);
        if (current != null && !unlabelled.contains(type)) {
          return;
        }
        if (removeSockets && attrs.isOther() && !entry.equals(top)) {
          Files.deleteIfExists(entry); // a socket or FIFO (devices do not belong in /tmp either way)
          return;
        }
        if (label != null) {
          byte[] path = bytes(entry);
          KERNEL.setLabel(Kernel.AT_FDCWD, Kernel.nul(path), label, path);
        }
      }
    });
  }

  private static String typeOf(byte[] label) {
    String[] fields = new String(label, StandardCharsets.ISO_8859_1).replace("\0", "").split(":");
    return fields.length >= 3 ? fields[2] : "";
  }

  /** An entry's label as stored (a trailing NUL kept, so it is copied as it is); null without one. */
  private static byte[] label(Path entry) {
    byte[] path = bytes(entry);
    try {
      return KERNEL.getLabel(Kernel.AT_FDCWD, Kernel.nul(path), path);
    } catch (NativeIoException e) {
      return null;
    }
  }

  private static byte[] bytes(Path path) {
    return path.toString().getBytes(PathBytes.charset());
  }

  private static long device(Path path) throws IOException {
    return ((Number) Files.getAttribute(path, "unix:dev", LinkOption.NOFOLLOW_LINKS)).longValue();
  }

  /** rm -rf, on this filesystem only. */
  private static void delete(Path top, long device) throws IOException {
    Files.walkFileTree(top, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        return device(dir) == device ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.deleteIfExists(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (device(dir) == device) {
          try {
            Files.deleteIfExists(dir);
          } catch (java.nio.file.DirectoryNotEmptyException notEmpty) {
            // a mount point below it was kept
          }
        }
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
