package dev.relabel.archive;

import dev.relabel.nativeio.FileStat;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.zip.ZipEncoding;

/**
 * Archives a directory as {@code tar -C DIR -cf - .} would (names {@code ./}, {@code ./etc/},
 * {@code ./etc/passwd}; GNU long names; one data copy per inode, hard links after it), each name
 * in byte order, and labels it on the way with a {@link TarLabeller}: the labels come from the
 * policy alone, nothing is read from or written to the directory's security attributes, so any
 * user who can read the tree can make a labelled image of it. Commons Compress writes the plain
 * archive into a pipe (names as raw bytes, ISO-8859-1) and the labeller reads it as it reads any
 * archive; the hard links are learnt by a first walk that only reads the entries' status. Both
 * walks reach every entry through its directory's descriptor ({@link Tree}), never by its path.
 * Sockets are left out, as tar leaves them, with its "socket ignored". Names are the kernel's
 * bytes whatever the locale (see {@link PathBytes#of(Path)}).
 */
public final class DirectoryArchiver {
  private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
  private static final Path PROC_FDS = Path.of("/proc/self/fd");
  private static final Kernel KERNEL = Kernel.linux();
  private static final byte[] PARENT = {'.', '.'};
  /**
   * How many levels from the top keep their descriptor while the walk is below them. A level
   * deeper than that gives its descriptor back while its subdirectory is walked and reopens itself
   * through the subdirectory's {@code ..} afterwards (checked to be the same directory), as GNU
   * tar gives descriptors back when it runs out: a tree deeper than the process may hold
   * descriptors is archived whole, never more than this many and the deepest level's open.
   */
  static final int OPEN_LEVELS = 64;

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
    if (!Files.isDirectory(PROC_FDS)) {
      throw new IOException(PathBytes.text(directory) + ": cannot be archived without /proc mounted (it is read"
          + " through descriptors, " + PROC_FDS + ")");
    }
    Set<List<Long>> leftOut = new HashSet<>();
    for (Path archive : archives) {
      if (Files.exists(archive, NOFOLLOW)) {
        Map<String, Object> attributes = Files.readAttributes(archive, "unix:dev,ino", NOFOLLOW);
        leftOut.add(inode(attributes));
      }
    }
    int root = KERNEL.openSearchOnly(PathBytes.of(directory));
    try {
      return archive(new Tree(directory, root, leftOut), labeller, out, start);
    } finally {
      KERNEL.close(root);
    }
  }

  private static RelabelReport archive(Tree tree, TarLabeller labeller, OutputStream out, long start)
      throws IOException {
    Map<List<Long>, List<byte[]>> inodes = new LinkedHashMap<>();
    tree.walk(entry -> {
      Map<String, Object> attributes = entry.attributes();
      if (attributes != null && (int) attributes.get("nlink") > 1 && !isDirectory(attributes)) {
        inodes.computeIfAbsent(inode(attributes), k -> new ArrayList<>(2)).add(entry.name());
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
        tree.walk(entry -> {
          if (entry.attributes() != null) {
            write(tar, entry, firstNames, labeller.listener());
          }
        });
        tar.finish();
      } catch (Throwable e) {
        failure.set(e);
      }
    }, "relabel-tar-archiver");
    writer.setDaemon(true);
    writer.start();
    RelabelReport report = null;
    IOException readFailure = null;
    try (InputStream in = pipe) {
      report = labeller.run(() -> in, links, out, start);
    } catch (IOException e) {
      readFailure = e;
    } finally {
      // The writer walks the tree through descriptors the caller closes next, and a number closed
      // is soon another file's: it must have ended first, whatever ended the reading (the pipe is
      // closed by now, so a write of its fails).
      writer.interrupt();
      awaitEnd(writer);
    }
    if (failure.get() != null) {
      throw rethrow(failure.get()); // what the writer met explains what the reader saw
    }
    if (readFailure != null) {
      throw readFailure;
    }
    return report;
  }

  /** Joins {@code thread}, however often this thread is interrupted meanwhile (the interrupt is kept). */
  private static void awaitEnd(Thread thread) {
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static IOException rethrow(Throwable e) {
    return e instanceof IOException io ? io : new IOException(e.toString(), e);
  }

  /**
   * One entry of the tree as the walk meets it.
   *
   * @param top DIR's bytes as given
   * @param dirfd its directory's descriptor
   * @param component its name in that directory (the empty name for the tree's top)
   * @param path where the JDK reaches it: {@code /proc/self/fd/DIRFD/COMPONENT}, resolved through
   *     the descriptor, never through the tree's path
   * @param name its name in the archive, from {@code /}
   * @param attributes its {@code unix:*} attributes; null for an entry left out
   */
  private record Entry(byte[] top, int dirfd, byte[] component, Path path, byte[] name,
      Map<String, Object> attributes) {
    /** Its path under DIR as given, for messages (made when asked: a walk holds no path per level). */
    byte[] shown() {
      return shownPath(top, name);
    }
  }

  /** The path of the entry named {@code name} in the archive, under DIR as given ({@code top}). */
  private static byte[] shownPath(byte[] top, byte[] name) {
    if (name.length == 1) {
      return top;
    }
    int keep = top.length == 1 && top[0] == '/' ? 0 : top.length;
    byte[] shown = Arrays.copyOf(top, keep + name.length);
    System.arraycopy(name, 0, shown, keep, name.length);
    return shown;
  }

  @FunctionalInterface
  private interface Visitor {
    void visit(Entry entry) throws IOException;
  }

  /**
   * The directory to archive, open as {@code root}, read through descriptors as GNU tar reads it:
   * each directory opened from its parent's descriptor without following a symlink and checked to
   * be the one whose status was read, each name looked up in its directory's descriptor. A
   * directory swapped for a symlink (or another directory) while the tree is archived, by anyone
   * who may write in it, fails the archive with "changed while it was archived" and never puts a
   * file from outside DIR in it, as the paths DIR/a/b, resolved again for each entry, could.
   *
   * @param leftOut the (device, inode) of entries visited with null attributes and not entered
   */
  private record Tree(Path directory, int root, Set<List<Long>> leftOut) {
    /**
     * Every entry (the top first), each directory's names in byte order, each directory's entries
     * right after it. Iterative, a stack of levels, at most {@link #OPEN_LEVELS} and the deepest
     * holding a descriptor: a tree is as deep as its owner made it (GNU tar 1.34, recursive, dies
     * of SIGSEGV ~10,000 levels down, its archive cut off).
     */
    void walk(Visitor visitor) throws IOException {
      Path top = procPath(root);
      byte[] topBytes = PathBytes.of(directory);
      Map<String, Object> attributes;
      try {
        attributes = Files.readAttributes(top, "unix:*"); // the top followed, as tar -C DIR follows DIR
      } catch (FileSystemException e) {
        throw PathBytes.as(e, directory);
      }
      boolean kept = !leftOut.contains(inode(attributes));
      visitor.visit(new Entry(topBytes, root, Kernel.self(), top, new byte[] {'/'}, kept ? attributes : null));
      if (!kept) {
        return;
      }
      // The archive names of the directories open, each a prefix of the next: "/", "/a", "/a/b".
      // Held once, not a copy a level, so a tree thousands deep costs memory linear in its depth.
      NamePrefixes names = new NamePrefixes();
      Deque<Listing> levels = new ArrayDeque<>();
      try {
        levels.push(Listing.read(root, Identity.of(attributes), 1, topBytes));
        while (!levels.isEmpty()) {
          Listing level = levels.peek();
          if (!level.hasNext()) {
            Listing done = levels.pop();
            Listing parent = levels.peek();
            try {
              if (parent != null && !parent.isOpen()) {
                parent.reopen(done.dirfd, shownPath(topBytes, names.name(parent.nameLength)));
              }
            } finally {
              done.close(root);
            }
            continue;
          }
          Listing.Child next = level.next();
          Path child = procPath(level.dirfd).resolve(next.name());
          byte[] component = next.component();
          byte[] childName = names.child(level.nameLength, component);
          try {
            attributes = Files.readAttributes(child, "unix:*", NOFOLLOW);
          } catch (FileSystemException e) {
            throw PathBytes.as(e, shownPath(topBytes, childName));
          }
          kept = !leftOut.contains(inode(attributes));
          Entry entry = new Entry(topBytes, level.dirfd, component, child, childName, kept ? attributes : null);
          visitor.visit(entry);
          if (kept && isDirectory(attributes)) {
            byte[] shown = entry.shown();
            Identity identity = Identity.of(attributes);
            int fd = open(level.dirfd, component, shown, identity, true);
            try {
              levels.push(Listing.read(fd, identity, names.enter(childName), shown));
            } catch (IOException | RuntimeException e) {
              KERNEL.close(fd);
              throw e;
            }
            if (levels.size() - 2 >= OPEN_LEVELS) {
              level.release();
            }
          }
        }
      } finally {
        while (!levels.isEmpty()) {
          levels.pop().close(root);
        }
      }
    }
  }

  /**
   * The archive names of the open directories, as one buffer: a directory's name is its first
   * {@code nameLength} bytes, and a child's name is its parent's prefix, a slash and its component.
   */
  private static final class NamePrefixes {
    private byte[] bytes = {'/'};

    /** The name of {@code component} in the directory whose name is the first {@code parentLength} bytes. */
    byte[] child(int parentLength, byte[] component) {
      int slash = parentLength == 1 ? 0 : 1;
      byte[] name = Arrays.copyOf(bytes, parentLength + slash + component.length);
      if (slash == 1) {
        name[parentLength] = '/';
      }
      System.arraycopy(component, 0, name, parentLength + slash, component.length);
      return name;
    }

    /** The name of the open directory whose name is the first {@code length} bytes. */
    byte[] name(int length) {
      return Arrays.copyOf(bytes, length);
    }

    /** Makes {@code name}, a directory's, the buffer's prefix (its parent's already is); returns its length. */
    int enter(byte[] name) {
      if (bytes.length < name.length) {
        bytes = Arrays.copyOf(bytes, Math.max(name.length, bytes.length * 2));
      }
      System.arraycopy(name, 0, bytes, 0, name.length);
      return name.length;
    }
  }

  /**
   * A directory being archived: its descriptor (given back while a subdirectory deep down is
   * walked), which directory it is, its name's length, and its entries (read once, in byte order)
   * not yet visited.
   */
  private static final class Listing {
    int dirfd;
    final Identity identity;
    final int nameLength;
    private final Iterator<Child> children;

    /** An entry as listed: its name as the JDK holds it, and as bytes. */
    record Child(Path name, byte[] component) {}

    private Listing(int dirfd, Identity identity, int nameLength, List<Child> children) {
      this.dirfd = dirfd;
      this.identity = identity;
      this.nameLength = nameLength;
      this.children = children.iterator();
    }

    /** The entries of the directory open as {@code dirfd}, its archive name {@code nameLength} bytes, at {@code shown}. */
    static Listing read(int dirfd, Identity identity, int nameLength, byte[] shown) throws IOException {
      List<Child> children = new ArrayList<>();
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(procPath(dirfd))) {
        for (Path child : entries) {
          children.add(new Child(child.getFileName(), lastComponent(PathBytes.of(child))));
        }
      } catch (FileSystemException e) {
        throw PathBytes.as(e, shown);
      }
      children.sort((a, b) -> Arrays.compareUnsigned(a.component(), b.component()));
      return new Listing(dirfd, identity, nameLength, children);
    }

    boolean hasNext() {
      return children.hasNext();
    }

    /** The next entry in byte order. */
    Child next() {
      return children.next();
    }

    boolean isOpen() {
      return dirfd >= 0;
    }

    /** Gives the descriptor back while the walk is below this directory. */
    void release() {
      KERNEL.close(dirfd);
      dirfd = -1;
    }

    /** Opens this directory again as the {@code ..} of its subdirectory open as {@code childFd}; fails unless it is the same one. */
    void reopen(int childFd, byte[] shown) throws IOException {
      dirfd = open(childFd, PARENT, shown, identity, true);
    }

    /** Closes this directory's descriptor unless it is the tree's top, which the caller owns. */
    void close(int top) {
      if (dirfd != top && isOpen()) {
        KERNEL.close(dirfd);
      }
    }
  }

  /** Which file an entry is: what its status said when it was read, compared with what is opened in its name. */
  private record Identity(long inode, long device, int format) {
    static Identity of(Map<String, Object> attributes) {
      return new Identity((Long) attributes.get("ino"), majorMinor((Long) attributes.get("dev")),
          (int) attributes.get("mode") & 0170000);
    }
  }

  /**
   * Opens {@code component} under {@code dirfd} (a directory to list, or a file to read), without
   * following a symlink; fails unless it is still the entry {@code identity} says it was.
   */
  private static int open(int dirfd, byte[] component, byte[] shown, Identity identity, boolean directory)
      throws IOException {
    int fd;
    try {
      fd = directory ? KERNEL.openDirectory(dirfd, component, shown)
          : KERNEL.openForReading(dirfd, component, shown);
    } catch (NativeIoException.NotFollowedException e) {
      throw changed(shown);
    } catch (NativeIoException e) {
      throw new FileSystemException(PathBytes.text(shown), null, e.reason());
    }
    try {
      FileStat stat = KERNEL.stat(fd, Kernel.self(), shown);
      if (stat.inode() != identity.inode() || stat.device() != identity.device()
          || stat.fileFormat() != identity.format()) {
        throw changed(shown);
      }
      return fd;
    } catch (IOException | RuntimeException e) {
      KERNEL.close(fd);
      throw e;
    }
  }

  private static IOException changed(byte[] shown) {
    return new IOException(PathBytes.text(shown) + ": changed while it was archived");
  }

  /** {@code /proc/self/fd/FD}: the JDK's way to what the descriptor holds. */
  private static Path procPath(int fd) {
    return PROC_FDS.resolve(Integer.toString(fd));
  }

  /** A {@code dev_t} (as the JDK gives {@code unix:dev} and {@code unix:rdev}) as major << 32 | minor. */
  private static long majorMinor(long dev) {
    long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    long minor = (dev & 0xff) | ((dev >>> 12) & 0xfff00);
    return major << 32 | minor;
  }

  private static void write(TarArchiveOutputStream tar, Entry file, Map<List<Long>, String> firstNames,
      RelabelListener listener) throws IOException {
    byte[] name = file.name();
    Map<String, Object> attributes = file.attributes();
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
      entry = new HeaderEntry(entryName, TarConstants.LF_LINK);
      entry.setLinkName(first);
    } else {
      switch (format) {
        case 0040000 -> entry = new HeaderEntry(entryName, TarConstants.LF_DIR);
        case 0120000 -> {
          entry = new HeaderEntry(entryName, TarConstants.LF_SYMLINK);
          // a symlink's target as stored, relative or not
          try {
            entry.setLinkName(new String(PathBytes.of(Files.readSymbolicLink(file.path())),
                java.nio.charset.StandardCharsets.ISO_8859_1));
          } catch (FileSystemException e) {
            throw PathBytes.as(e, file.shown());
          }
        }
        case 0020000, 0060000 -> {
          entry = new HeaderEntry(entryName, format == 0020000 ? TarConstants.LF_CHR : TarConstants.LF_BLK);
          long device = majorMinor((Long) attributes.get("rdev"));
          entry.setDevMajor((int) (device >>> 32));
          entry.setDevMinor((int) device);
        }
        case 0010000 -> entry = new HeaderEntry(entryName, TarConstants.LF_FIFO);
        default -> {
          entry = new HeaderEntry(entryName, TarConstants.LF_NORMAL);
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
      // read through a descriptor opened from its directory's and checked to be this file (a FIFO
      // put in its place is not waited on), the JDK's stream reopening that descriptor's file
      byte[] shown = file.shown();
      int fd = open(file.dirfd(), file.component(), shown, Identity.of(attributes), false);
      try (InputStream data = Files.newInputStream(procPath(fd))) {
        long copied = data.transferTo(tar);
        if (copied != entry.getSize()) {
          throw new IOException(PathBytes.text(shown) + ": changed size while it was archived");
        }
      } finally {
        KERNEL.close(fd);
      }
    }
    tar.closeArchiveEntry();
  }

  /**
   * An entry whose header gets the first 100 bytes of a longer name (or link target) directly:
   * Commons Compress 1.28 finds them by encoding the name one byte shorter at a time, quadratic in
   * the name's length, which made a tree 3,000 directories deep take a minute and one 12,000 deep
   * an hour. The same bytes: names here are ISO-8859-1, a byte a char. The full name still goes
   * first as the GNU long name, which the output stream writes from the entry before its header.
   */
  private static final class HeaderEntry extends TarArchiveEntry {
    HeaderEntry(String name, byte linkFlag) {
      super(name, linkFlag, true);
    }

    @Override
    public void writeEntryHeader(byte[] header, ZipEncoding encoding, boolean starMode) throws IOException {
      String name = getName();
      String linkName = getLinkName();
      setName(cut(name, TarConstants.NAMELEN));
      setLinkName(cut(linkName, TarConstants.NAMELEN));
      try {
        super.writeEntryHeader(header, encoding, starMode);
      } finally {
        setName(name);
        setLinkName(linkName);
      }
    }

    private static String cut(String name, int length) {
      return name.length() > length ? name.substring(0, length) : name;
    }
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
}
