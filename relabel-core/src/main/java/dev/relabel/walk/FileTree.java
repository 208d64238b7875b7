package dev.relabel.walk;

import dev.relabel.policy.FileType;
import java.io.IOException;
import java.util.List;

/**
 * The filesystem as the walker sees it: directories opened relative to their parent without
 * following symlinks, their entries, and the label store. The engine's real tree is
 * {@link NativeFileTree}; tests of the walker's own logic may use another.
 *
 * <p>Names are one path component, raw bytes, never empty except where "the directory itself" is
 * meant.
 */
public interface FileTree {
  /**
   * An entry of a directory: its name, its type and inode as the directory listing tells them
   * ({@code inode} 0 where the tree does not say).
   *
   * @param ahead what the tree read of the entry with its listing
   *     ({@link Directory#entriesReadAhead}), in its own form, for its {@link Directory#status(Entry,
   *     byte[])} and {@link Directory#label(Entry, byte[])}; null when nothing
   */
  record Entry(byte[] name, FileType type, long inode, Object ahead) {
    public Entry(byte[] name, FileType type) {
      this(name, type, 0, null);
    }

    public Entry(byte[] name, FileType type, long inode) {
      this(name, type, inode, null);
    }

    /** Whether the listing did not say (DT_UNKNOWN): a stat is needed. */
    public boolean typeUnknown() {
      return type == FileType.ANY;
    }
  }

  /**
   * What the walker needs of an entry's status.
   *
   * @param modifiedNanos the modification time in nanoseconds since the epoch, for
   *     {@link RelabelOptions#changedAfter}; {@link #UNKNOWN_TIME} where the tree does not say
   */
  record Status(FileType type, long links, long inode, long device, long modifiedNanos) {
    /** A modification time later than any: an entry whose time is unknown counts as changed. */
    public static final long UNKNOWN_TIME = Long.MAX_VALUE;

    /** A status without a modification time. */
    public Status(FileType type, long links, long inode, long device) {
      this(type, links, inode, device, UNKNOWN_TIME);
    }
  }

  /**
   * An open directory. The walker shares one between the workers that open its subdirectories
   * and, for a large directory, those that visit ranges of its entries at once (see
   * {@code TreeTask}), never while closing it: every operation but {@link #close} must be safe to
   * call from several threads (a {@link NativeFileTree} directory's each make one system call on
   * its descriptor).
   */
  interface Directory extends AutoCloseable {
    /** Every entry but "." and "..". */
    List<Entry> entries() throws IOException;

    /**
     * As {@link #entries}, for a walk that will read the status or label of most of them: a tree
     * that can read those with the listing, for less than one call each, does (the real tree with
     * librelabel), for entries other than a mount's root. Such reads have no effect on the files, but
     * may include entries the walk then leaves alone (no context, another filesystem under -x).
     * By default the entries alone.
     */
    default List<Entry> entriesReadAhead() throws IOException {
      return entries();
    }

    /** The subdirectory {@code name}; fails, without following it, when it is a symlink or not a directory. */
    Directory openChild(byte[] name, byte[] pathForErrors) throws IOException;

    /**
     * The subdirectory {@code name}, opened only if it is on this directory's mount, which the
     * tree then vouches for (no status needed to know its device); null otherwise: a mount point,
     * a failure (which {@link #openChild} reports), or a tree that cannot tell, as by default.
     */
    default Directory openChildOnMount(byte[] name) throws IOException {
      return null;
    }

    /** The status of {@code name}, or of this directory when {@code name} is empty; never follows a symlink. */
    Status status(byte[] name, byte[] pathForErrors) throws IOException;

    /** The status of {@code entry}, as {@link #status(byte[], byte[])} answers it; read ahead where it was. */
    default Status status(Entry entry, byte[] pathForErrors) throws IOException {
      return status(entry.name(), pathForErrors);
    }

    /**
     * The label of {@code name} (or of this directory when empty) up to its first NUL; null when it
     * has none; an empty value fails with ENOTSUP, as libselinux's lgetfilecon fails it.
     */
    byte[] label(byte[] name, byte[] pathForErrors) throws IOException;

    /** The label of {@code entry}, as {@link #label(byte[], byte[])} answers it; read ahead where it was. */
    default byte[] label(Entry entry, byte[] pathForErrors) throws IOException {
      return label(entry.name(), pathForErrors);
    }

    /**
     * The label of {@code name} (or of this directory when empty) as stored, its NUL and anything
     * after it included; null when it has none. chcon's "only what differs" needs it: a context
     * stored without its NUL is rewritten by chcon, which always writes one. By default the label
     * with a NUL, as libselinux writes it.
     */
    default byte[] storedLabel(byte[] name, byte[] pathForErrors) throws IOException {
      byte[] label = label(name, pathForErrors);
      return label == null ? null : java.util.Arrays.copyOf(label, label.length + 1);
    }

    /** Sets the label of {@code name} (or of this directory when empty); never follows a symlink. */
    void setLabel(byte[] name, byte[] label, byte[] pathForErrors) throws IOException;

    /**
     * libselinux's digest of the directory {@code name} (or of this directory when empty), the
     * raw value of {@code security.sehash}; null when it has none. A tree that keeps no digests
     * has none.
     */
    default byte[] digest(byte[] name, byte[] pathForErrors) throws IOException {
      return null;
    }

    /** Stores the digest of the directory {@code name}; never follows a symlink. */
    default void setDigest(byte[] name, byte[] digest, byte[] pathForErrors) throws IOException {
      throw new IOException("this tree keeps no directory digests");
    }

    /** The type ({@code statfs}'s {@code f_type}) of the filesystem holding this directory; 0 when unknown. */
    default long filesystemType(byte[] pathForErrors) throws IOException {
      return 0;
    }

    @Override
    void close();
  }

  /** Opens the directory at {@code path} (absolute), the starting point of a walk. */
  Directory open(byte[] path) throws IOException;

  /**
   * The type ({@code statfs}'s {@code f_type}) of the filesystem at {@code path} (absolute), a
   * symlink in it followed, its last component's too; 0 when unknown. On the real tree, as
   * statfs(2), the lookup mounts what an automount point there stands for.
   */
  default long filesystemTypeAt(byte[] path) throws IOException {
    return 0;
  }

  /**
   * The text of the mount table ({@code /proc/self/mountinfo}) the tree's paths are resolved by;
   * empty for a tree that is not the system's, or when it cannot be read.
   */
  default String mountTable() {
    return "";
  }

  /**
   * Opens the directory part of a path given, to look up, label and open the names in it, never to
   * list it: search permission on it is enough (a directory with mode 0100 holding a file to
   * label), and a symlink in it is followed ({@code link-to-dir/file}), as chcon resolves the path.
   */
  default Directory openForLookup(byte[] path) throws IOException {
    return open(path);
  }
}
