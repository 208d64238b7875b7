package dev.relabel.walk;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.relabel.policy.PathBytes;
import dev.relabel.nativeio.Errno;
import dev.relabel.nativeio.TestErrno;
import dev.relabel.policy.FileType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FileTree} over an in-memory jimfs filesystem, for tests of the walker's own logic.
 * Labels live in the user attribute {@code user:security.selinux}, directory digests in
 * {@code user:security.sehash}; labels are written with a trailing NUL, as
 * libselinux writes them; names are bytes held one char per byte (see {@link PathBytes}). Like the
 * native tree it never follows a symlink for the entry it is asked about, refuses to open a
 * symlink or non-directory as a directory, and reports failures as the native layer's exception
 * types with their errno. It counts its open directories, so tests can see that every one closes.
 */
final class JimfsFileTree implements FileTree {
  static final String ATTRIBUTE = "security.selinux";
  /** Directory digests, beside the labels. */
  static final String DIGEST_ATTRIBUTE = "security.sehash";
  private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

  /** How many times a tree {@link #showingItselfAs} opens a directory as its own subdirectory before refusing. */
  static final int SELF_OPENS_ALLOWED = 64;

  private final FileSystem fs;
  private final boolean reportTypes;
  private final String selfName;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger maxOpen = new AtomicInteger();
  private final AtomicInteger selfOpens = new AtomicInteger();

  /** A tree whose listings report each entry's type. */
  JimfsFileTree(FileSystem fs) {
    this(fs, true, null);
  }

  /** With {@code reportTypes} false every listed entry is DT_UNKNOWN, so the walker must stat it. */
  JimfsFileTree(FileSystem fs, boolean reportTypes) {
    this(fs, reportTypes, null);
  }

  private JimfsFileTree(FileSystem fs, boolean reportTypes, String selfName) {
    this.fs = fs;
    this.reportTypes = reportTypes;
    this.selfName = selfName;
  }

  /**
   * A filesystem that shows a directory inside itself, as a corrupt one or a FUSE or network one
   * may: each directory named {@code name} is its parent again (its status, its label, its
   * listing), so a walk that enters one never ends; after {@link #SELF_OPENS_ALLOWED} such opens
   * the tree refuses (ELOOP), so that a test of a walk that does not stop fails instead of hanging.
   */
  static JimfsFileTree showingItselfAs(FileSystem fs, String name) {
    return new JimfsFileTree(fs, true, name);
  }

  /** How many times a directory was opened as its own subdirectory ({@link #showingItselfAs}). */
  int selfOpens() {
    return selfOpens.get();
  }

  /** A fresh unix-like jimfs with the attribute views the tree needs. */
  static FileSystem newFileSystem() {
    return Jimfs.newFileSystem(Configuration.unix().toBuilder()
        .setAttributeViews("basic", "posix", "unix", "user")
        .build());
  }

  /** Directories open now. */
  int openDirectories() {
    return open.get();
  }

  /** The most directories open at once so far. */
  int maxOpenDirectories() {
    return maxOpen.get();
  }

  @Override
  public Directory open(byte[] path) throws IOException {
    Path p = fs.getPath(PathBytes.latin1(path));
    // As open(2) with O_NOFOLLOW: the parents are resolved, the last component is not followed.
    Path parent = p.getParent();
    Path resolved;
    try {
      resolved = parent == null ? p.toRealPath() : parent.toRealPath().resolve(p.getFileName());
    } catch (NoSuchFileException e) {
      throw TestErrno.exception("openat", path, Errno.ENOENT);
    } catch (NotDirectoryException e) {
      throw TestErrno.exception("openat", path, Errno.ENOTDIR);
    }
    return openDirectory(resolved, path);
  }

  private Directory openDirectory(Path p, byte[] pathForErrors) throws IOException {
    BasicFileAttributes attributes = attributes(p, "openat", pathForErrors);
    if (attributes.isSymbolicLink()) {
      throw TestErrno.exception("openat", pathForErrors, Errno.ELOOP);
    }
    if (!attributes.isDirectory()) {
      throw TestErrno.exception("openat", pathForErrors, Errno.ENOTDIR);
    }
    int now = open.incrementAndGet();
    maxOpen.accumulateAndGet(now, Math::max);
    return new JimfsDirectory(p);
  }

  private static BasicFileAttributes attributes(Path p, String operation, byte[] pathForErrors) throws IOException {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, NOFOLLOW);
    } catch (NoSuchFileException e) {
      throw TestErrno.exception(operation, pathForErrors, Errno.ENOENT);
    }
  }

  static FileType typeOf(BasicFileAttributes attributes) {
    if (attributes.isDirectory()) {
      return FileType.DIRECTORY;
    }
    if (attributes.isSymbolicLink()) {
      return FileType.SYMLINK;
    }
    if (attributes.isRegularFile()) {
      return FileType.REGULAR_FILE;
    }
    return FileType.ANY;
  }

  private final class JimfsDirectory implements Directory {
    private final Path dir;
    private boolean closed;

    JimfsDirectory(Path dir) {
      this.dir = dir;
    }

    private Path entry(byte[] name) {
      checkOpen();
      return name.length == 0 || isSelf(name) ? dir : dir.resolve(PathBytes.latin1(name));
    }

    private boolean isSelf(byte[] name) {
      return selfName != null && PathBytes.latin1(name).equals(selfName);
    }

    private void checkOpen() {
      if (closed) {
        throw new IllegalStateException("directory used after close: " + dir);
      }
    }

    @Override
    public List<Entry> entries() throws IOException {
      checkOpen();
      List<Entry> entries = new ArrayList<>();
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path child : stream) {
          byte[] name = PathBytes.fromLatin1(child.getFileName().toString());
          FileType type = reportTypes
              ? typeOf(Files.readAttributes(child, BasicFileAttributes.class, NOFOLLOW))
              : FileType.ANY;
          entries.add(new Entry(name, type));
        }
      } catch (NoSuchFileException e) {
        throw TestErrno.exception("getdents64", PathBytes.fromLatin1(dir.toString()), Errno.ENOENT);
      }
      return entries;
    }

    @Override
    public Directory openChild(byte[] name, byte[] pathForErrors) throws IOException {
      if (isSelf(name) && selfOpens.incrementAndGet() > SELF_OPENS_ALLOWED) {
        throw TestErrno.exception("openat", pathForErrors, Errno.ELOOP);
      }
      return openDirectory(entry(name), pathForErrors);
    }

    @Override
    public Status status(byte[] name, byte[] pathForErrors) throws IOException {
      Path p = entry(name);
      BasicFileAttributes basic = attributes(p, "statx", pathForErrors);
      Map<String, Object> unix = Files.readAttributes(p, "unix:ino,nlink,dev", NOFOLLOW);
      return new Status(typeOf(basic), ((Number) unix.get("nlink")).longValue(),
          ((Number) unix.get("ino")).longValue(), ((Number) unix.get("dev")).longValue());
    }

    @Override
    public byte[] label(byte[] name, byte[] pathForErrors) throws IOException {
      UserDefinedFileAttributeView view = view(entry(name), "getxattrat", pathForErrors);
      if (!view.list().contains(ATTRIBUTE)) {
        return null;
      }
      ByteBuffer buffer = ByteBuffer.allocate(view.size(ATTRIBUTE));
      view.read(ATTRIBUTE, buffer);
      byte[] value = buffer.array();
      for (int i = 0; i < value.length; i++) {
        if (value[i] == 0) {
          return Arrays.copyOf(value, i);
        }
      }
      return value;
    }

    @Override
    public void setLabel(byte[] name, byte[] label, byte[] pathForErrors) throws IOException {
      UserDefinedFileAttributeView view = view(entry(name), "setxattrat", pathForErrors);
      view.write(ATTRIBUTE, ByteBuffer.wrap(Arrays.copyOf(label, label.length + 1)));
    }

    @Override
    public byte[] digest(byte[] name, byte[] pathForErrors) throws IOException {
      UserDefinedFileAttributeView view = view(entry(name), "getxattrat", pathForErrors);
      if (!view.list().contains(DIGEST_ATTRIBUTE)) {
        return null;
      }
      ByteBuffer buffer = ByteBuffer.allocate(view.size(DIGEST_ATTRIBUTE));
      view.read(DIGEST_ATTRIBUTE, buffer);
      return buffer.array();
    }

    @Override
    public void setDigest(byte[] name, byte[] digest, byte[] pathForErrors) throws IOException {
      view(entry(name), "setxattrat", pathForErrors).write(DIGEST_ATTRIBUTE, ByteBuffer.wrap(digest));
    }

    private UserDefinedFileAttributeView view(Path p, String operation, byte[] pathForErrors) throws IOException {
      attributes(p, operation, pathForErrors);
      return Files.getFileAttributeView(p, UserDefinedFileAttributeView.class, NOFOLLOW);
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        open.decrementAndGet();
      }
    }
  }

  /** The label of {@code p} (not following it) without its NUL; null when it has none. */
  static String labelOf(Path p) throws IOException {
    UserDefinedFileAttributeView view = Files.getFileAttributeView(p, UserDefinedFileAttributeView.class, NOFOLLOW);
    if (!view.list().contains(ATTRIBUTE)) {
      return null;
    }
    ByteBuffer buffer = ByteBuffer.allocate(view.size(ATTRIBUTE));
    view.read(ATTRIBUTE, buffer);
    String value = PathBytes.latin1(buffer.array());
    int nul = value.indexOf('\0');
    return nul < 0 ? value : value.substring(0, nul);
  }

  /** Sets the label of {@code p} (not following it), with a trailing NUL. */
  static void setLabelOf(Path p, String label) throws IOException {
    UserDefinedFileAttributeView view = Files.getFileAttributeView(p, UserDefinedFileAttributeView.class, NOFOLLOW);
    view.write(ATTRIBUTE, ByteBuffer.wrap(PathBytes.fromLatin1(label + "\0")));
  }
}
