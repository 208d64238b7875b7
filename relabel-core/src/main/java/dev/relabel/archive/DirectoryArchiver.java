package dev.relabel.archive;

import dev.relabel.policy.PathBytes;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * Archives a directory as {@code tar -C DIR -cf - .} would (names {@code ./}, {@code ./etc/},
 * {@code ./etc/passwd}; GNU long names; one data copy per inode, hard links after it), each name
 * in byte order, and labels it on the way with a {@link TarLabeller}: the labels come from the
 * policy alone, nothing is read from or written to the directory's security attributes, so any
 * user who can read the tree can make a labelled image of it. Commons Compress writes the plain
 * archive into a pipe (names as raw bytes, ISO-8859-1) and the labeller reads it as it reads any
 * archive; the hard links are learnt by a first walk that only reads the entries' status.
 * Sockets are left out, as tar leaves them, with its "socket ignored". Names are the kernel's
 * bytes whatever the locale (see {@link PathBytes#of(Path)}).
 */
public final class DirectoryArchiver {
  private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};

  private DirectoryArchiver() {}

  /** Writes {@code directory}'s labelled archive (uncompressed) to {@code out}, or checks it when out is null. */
  public static RelabelReport archive(Path directory, TarLabeller labeller, OutputStream out) throws IOException {
    return archive(directory, labeller, out, List.of());
  }

  /**
   * The same, leaving out the files {@code archives} names where they lie in the directory (by
   * device and inode): the archive being written and the file it will replace, as GNU tar leaves
   * out its archive ("file is the archive; not dumped"; saying so is the caller's).
   */
  public static RelabelReport archive(Path directory, TarLabeller labeller, OutputStream out, List<Path> archives)
      throws IOException {
    long start = System.nanoTime();
    // DIR itself may be a symbolic link to a directory, as tar -C DIR changes into it
    try {
      if (!isDirectory(Files.readAttributes(directory, "unix:mode"))) {
        throw new NotDirectoryException(PathBytes.text(directory));
      }
    } catch (FileSystemException e) {
      throw PathBytes.named(e, directory);
    }
    Set<List<Long>> leftOut = new HashSet<>();
    for (Path archive : archives) {
      if (Files.exists(archive, NOFOLLOW)) {
        Map<String, Object> attributes = Files.readAttributes(archive, "unix:dev,ino", NOFOLLOW);
        leftOut.add(inode(attributes));
      }
    }
    Map<List<Long>, List<byte[]>> inodes = new LinkedHashMap<>();
    walk(directory, new byte[] {'/'}, leftOut, (path, name, attributes) -> {
      if (attributes != null && (int) attributes.get("nlink") > 1 && !isDirectory(attributes)) {
        inodes.computeIfAbsent(inode(attributes), k -> new ArrayList<>(2)).add(name);
      }
    });
    List<List<byte[]>> groups = new ArrayList<>();
    for (List<byte[]> names : inodes.values()) {
      if (names.size() > 1) {
        groups.add(names);
      }
    }
    HardLinks links = HardLinks.of(groups);

    PipedInputStream pipe = new PipedInputStream(1 << 16);
    PipedOutputStream writerEnd = new PipedOutputStream(pipe);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      try (TarArchiveOutputStream tar = new TarArchiveOutputStream(writerEnd, "ISO-8859-1")) {
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_GNU);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        Map<List<Long>, String> firstNames = new HashMap<>();
        walk(directory, new byte[] {'/'}, leftOut, (path, name, attributes) -> {
          if (attributes != null) {
            write(tar, path, name, attributes, firstNames, labeller.listener());
          }
        });
        tar.finish();
      } catch (Throwable e) {
        failure.set(e);
      }
    }, "relabel-tar-archiver");
    writer.setDaemon(true);
    writer.start();
    RelabelReport report;
    try (InputStream in = pipe) {
      report = labeller.run(() -> in, links, out, start);
    } catch (IOException e) {
      if (failure.get() != null) {
        throw rethrow(failure.get());
      }
      throw e;
    } finally {
      writer.interrupt();
    }
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (failure.get() != null) {
      throw rethrow(failure.get());
    }
    return report;
  }

  private static IOException rethrow(Throwable e) {
    return e instanceof IOException io ? io : new IOException(e.toString(), e);
  }

  @FunctionalInterface
  private interface Visitor {
    void visit(Path path, byte[] name, Map<String, Object> attributes) throws IOException;
  }

  /**
   * Every entry beneath {@code path} (itself first), each directory's names in byte order; one
   * whose (device, inode) is in {@code leftOut} is visited with null attributes, and not entered.
   */
  private static void walk(Path path, byte[] name, Set<List<Long>> leftOut, Visitor visitor) throws IOException {
    List<Path> children = new ArrayList<>();
    try {
      // the root ("/") followed, as tar -C DIR follows DIR; every entry below it not
      Map<String, Object> attributes = name.length == 1 ? Files.readAttributes(path, "unix:*")
          : Files.readAttributes(path, "unix:*", NOFOLLOW);
      if (leftOut.contains(inode(attributes))) {
        visitor.visit(path, name, null);
        return;
      }
      visitor.visit(path, name, attributes);
      if (!isDirectory(attributes)) {
        return;
      }
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
        for (Path child : entries) {
          children.add(child);
        }
      }
    } catch (FileSystemException e) {
      throw PathBytes.named(e, path);
    }
    List<byte[]> names = new ArrayList<>(children.size());
    for (Path child : children) {
      names.add(lastComponent(PathBytes.of(child)));
    }
    Integer[] order = new Integer[children.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(names.get(a), names.get(b)));
    for (int i : order) {
      walk(children.get(i), join(name, names.get(i)), leftOut, visitor);
    }
  }

  private static void write(TarArchiveOutputStream tar, Path path, byte[] name, Map<String, Object> attributes,
      Map<List<Long>, String> firstNames, RelabelListener listener) throws IOException {
    int mode = (int) attributes.get("mode");
    int format = mode & 0170000;
    if (format == 0140000) {
      // a socket: tar leaves them out, and says so
      listener.warned("." + PathBytes.text(name) + ": socket ignored");
      return;
    }
    String entryName = "." + new String(name, java.nio.charset.StandardCharsets.ISO_8859_1)
        + (format == 0040000 && name.length > 1 ? "/" : "");
    if (name.length == 1) {
      entryName = "./";
    }
    TarArchiveEntry entry;
    List<Long> inode = inode(attributes);
    String first = format != 0040000 && (int) attributes.get("nlink") > 1 ? firstNames.get(inode) : null;
    if (first != null) {
      entry = new TarArchiveEntry(entryName, TarConstants.LF_LINK, true);
      entry.setLinkName(first);
    } else {
      switch (format) {
        case 0040000 -> entry = new TarArchiveEntry(entryName, TarConstants.LF_DIR, true);
        case 0120000 -> {
          entry = new TarArchiveEntry(entryName, TarConstants.LF_SYMLINK, true);
          // a symlink's target as stored, relative or not
          entry.setLinkName(new String(PathBytes.of(Files.readSymbolicLink(path)),
              java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        case 0020000, 0060000 -> {
          entry = new TarArchiveEntry(entryName, format == 0020000 ? TarConstants.LF_CHR : TarConstants.LF_BLK, true);
          long rdev = (Long) attributes.get("rdev");
          entry.setDevMajor((int) (((rdev >>> 8) & 0xfff) | ((rdev >>> 32) & ~0xfffL)));
          entry.setDevMinor((int) ((rdev & 0xff) | ((rdev >>> 12) & 0xfff00)));
        }
        case 0010000 -> entry = new TarArchiveEntry(entryName, TarConstants.LF_FIFO, true);
        default -> {
          entry = new TarArchiveEntry(entryName, TarConstants.LF_NORMAL, true);
          entry.setSize((Long) attributes.get("size"));
        }
      }
      if (format != 0040000 && (int) attributes.get("nlink") > 1) {
        firstNames.put(inode, entryName);
      }
    }
    entry.setMode(mode & 07777);
    entry.setUserId((Integer) attributes.get("uid"));
    entry.setGroupId((Integer) attributes.get("gid"));
    entry.setUserName(owner(attributes.get("owner")));
    entry.setGroupName(owner(attributes.get("group")));
    // Commons Compress writes a sub-second mtime as a PAX record to 100 ns (GNU tar's posix format
    // keeps nanoseconds, its default gnu format whole seconds); toMillis() would drop the rest.
    entry.setLastModifiedTime((FileTime) attributes.get("lastModifiedTime"));
    tar.putArchiveEntry(entry);
    if (entry.isFile() && entry.getSize() > 0) {
      try (InputStream data = Files.newInputStream(path, NOFOLLOW)) {
        long copied = data.transferTo(tar);
        if (copied != entry.getSize()) {
          throw new IOException(PathBytes.text(path) + ": changed size while it was archived");
        }
      }
    }
    tar.closeArchiveEntry();
  }

  private static boolean isDirectory(Map<String, Object> attributes) {
    return ((int) attributes.get("mode") & 0170000) == 0040000;
  }

  /** An entry's (device, inode), from its {@code unix:} attributes: what names one file. */
  private static List<Long> inode(Map<String, Object> attributes) {
    return List.of((Long) attributes.get("dev"), (Long) attributes.get("ino"));
  }

  private static String owner(Object principal) {
    String name = principal == null ? "" : principal.toString();
    // an owner with no name in the user database is shown by its number: tar then writes no name
    return name.chars().allMatch(Character::isDigit) ? "" : name;
  }

  private static byte[] lastComponent(byte[] path) {
    int slash = path.length - 1;
    while (slash >= 0 && path[slash] != '/') {
      slash--;
    }
    return Arrays.copyOfRange(path, slash + 1, path.length);
  }

  private static byte[] join(byte[] directory, byte[] name) {
    boolean root = directory.length == 1;
    byte[] path = Arrays.copyOf(directory, directory.length + (root ? 0 : 1) + name.length);
    if (!root) {
      path[directory.length] = '/';
    }
    System.arraycopy(name, 0, path, path.length - name.length, name.length);
    return path;
  }
}
