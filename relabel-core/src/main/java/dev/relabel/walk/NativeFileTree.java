package dev.relabel.walk;

import dev.relabel.nativeio.DirEntry;
import dev.relabel.nativeio.Errno;
import dev.relabel.nativeio.FileStat;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.FileType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The real tree: every directory is a descriptor opened with {@code O_NOFOLLOW|O_DIRECTORY}
 * relative to its parent's, and every entry is reached through its directory's descriptor, so a
 * path component swapped for a symlink mid-walk is never followed. Entry names go to
 * {@link Kernel} as getdents gave them: it adds the NUL, so no entry needs a terminated copy.
 */
public final class NativeFileTree implements FileTree {
  private static final Kernel KERNEL = Kernel.linux();

  @Override
  public Directory open(byte[] path) throws NativeIoException {
    int fd = KERNEL.openDirectory(Kernel.AT_FDCWD, Kernel.nul(path), path);
    return new NativeDirectory(fd);
  }

  @Override
  public Directory openForLookup(byte[] path) throws NativeIoException {
    return new NativeDirectory(KERNEL.openSearchOnly(path));
  }

  @Override
  public long filesystemTypeAt(byte[] path) throws NativeIoException {
    return KERNEL.filesystemTypeAt(path);
  }

  @Override
  public String mountTable() {
    return MountTable.text();
  }

  private static final class NativeDirectory implements Directory {
    private final int fd;
    private boolean closed;

    NativeDirectory(int fd) {
      this.fd = fd;
    }

    @Override
    public List<Entry> entries() throws NativeIoException {
      return entries(KERNEL.readDirectory(fd, new byte[0]));
    }

    @Override
    public List<Entry> entriesReadAhead() throws NativeIoException {
      // Without librelabel, Kernel.readDirectoryAhead lists the entries alone.
      return entries(KERNEL.readDirectoryAhead(fd, new byte[0]));
    }

    /** The walk's entries, each keeping what was read of it ahead (its DirEntry), where anything was. */
    private static List<Entry> entries(List<DirEntry> raw) {
      List<Entry> entries = new ArrayList<>(raw.size());
      for (DirEntry entry : raw) {
        Object ahead = entry.stat() != null || entry.labelRead() ? entry : null;
        entries.add(new Entry(entry.name(), typeOf(entry.type()), entry.inode(), ahead));
      }
      return entries;
    }

    @Override
    public Directory openChild(byte[] name, byte[] pathForErrors) throws NativeIoException {
      return new NativeDirectory(KERNEL.openDirectory(fd, name, pathForErrors));
    }

    @Override
    public Directory openChildOnMount(byte[] name) {
      int child = KERNEL.openDirectoryOnMount(fd, name);
      return child < 0 ? null : new NativeDirectory(child);
    }

    @Override
    public Status status(byte[] name, byte[] pathForErrors) throws NativeIoException {
      return statusOf(KERNEL.stat(fd, name, pathForErrors));
    }

    @Override
    public Status status(Entry entry, byte[] pathForErrors) throws NativeIoException {
      if (entry.ahead() instanceof DirEntry ahead && ahead.stat() != null) {
        return statusOf(ahead.stat());
      }
      return status(entry.name(), pathForErrors);
    }

    private static Status statusOf(FileStat stat) {
      return new Status(FileType.fromMode(stat.mode()), stat.nlink(), stat.inode(), stat.device(), stat.modifiedNanos());
    }

    @Override
    public byte[] label(byte[] name, byte[] pathForErrors) throws NativeIoException {
      return labelOf(KERNEL.getLabel(fd, name, pathForErrors), pathForErrors);
    }

    @Override
    public byte[] label(Entry entry, byte[] pathForErrors) throws NativeIoException {
      if (entry.ahead() instanceof DirEntry ahead && ahead.labelRead()) {
        return labelOf(ahead.label(), pathForErrors);
      }
      return label(entry.name(), pathForErrors);
    }

    /** The label libselinux reads from the attribute's raw {@code value}. */
    private static byte[] labelOf(byte[] value, byte[] pathForErrors) throws NativeIoException {
      if (value == null) {
        return null;
      }
      if (value.length == 0) {
        // lgetfilecon turns an empty value into ENOTSUP: setfiles reports the entry ("Could not
        // set context for F:  Operation not supported", -F or not) and leaves it as it is.
        throw NativeIoException.of("getxattr", pathForErrors, Errno.ENOTSUP);
      }
      // libselinux stores the context with its NUL and reads it as a C string.
      for (int i = 0; i < value.length; i++) {
        if (value[i] == 0) {
          return Arrays.copyOf(value, i);
        }
      }
      return value;
    }

    @Override
    public byte[] storedLabel(byte[] name, byte[] pathForErrors) throws NativeIoException {
      return KERNEL.getLabel(fd, name, pathForErrors);
    }

    @Override
    public void setLabel(byte[] name, byte[] label, byte[] pathForErrors) throws NativeIoException {
      // Written as libselinux writes it: the context and its terminating NUL.
      KERNEL.setLabel(fd, name, Kernel.nul(label), pathForErrors);
    }

    @Override
    public byte[] digest(byte[] name, byte[] pathForErrors) throws NativeIoException {
      return KERNEL.getDigest(fd, name, pathForErrors);
    }

    @Override
    public void setDigest(byte[] name, byte[] digest, byte[] pathForErrors) throws NativeIoException {
      KERNEL.setDigest(fd, name, digest, pathForErrors);
    }

    @Override
    public long filesystemType(byte[] pathForErrors) throws NativeIoException {
      return KERNEL.filesystemType(fd, pathForErrors);
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        KERNEL.close(fd);
      }
    }
  }

  private static FileType typeOf(int dType) {
    return switch (dType) {
      case Kernel.DT_REG -> FileType.REGULAR_FILE;
      case Kernel.DT_DIR -> FileType.DIRECTORY;
      case Kernel.DT_LNK -> FileType.SYMLINK;
      case Kernel.DT_CHR -> FileType.CHAR_DEVICE;
      case Kernel.DT_BLK -> FileType.BLOCK_DEVICE;
      case Kernel.DT_SOCK -> FileType.SOCKET;
      case Kernel.DT_FIFO -> FileType.FIFO;
      default -> FileType.ANY;
    };
  }
}
