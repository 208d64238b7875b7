package dev.relabel.walk;

import dev.relabel.nativeio.Errno;
import dev.relabel.nativeio.NativeIoException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Stores directory digests once a root has been labelled (and reaches multiply-linked files again
 * to label them, see {@code Walk.labelMultiLinked}). The walk keeps no descriptor open for
 * this, so each directory is reached again from the root, one {@code O_NOFOLLOW} component at a
 * time, sharing the opened ancestors between neighbours (the paths are sorted), and written only
 * if it is still the directory (device and inode) the walk labelled.
 */
final class DigestStore {
  /** {@code TMPFS_MAGIC}, {@code RAMFS_MAGIC}, {@code SYSFS_MAGIC}: libselinux keeps no digest there. */
  private static final long TMPFS = 0x01021994L;
  private static final long RAMFS = 0x858458f6L;
  private static final long SYSFS = 0x62656572L;

  /** An entry the walk met, and, for a directory, the digest it is to get (null otherwise). */
  record Pending(byte[] path, long device, long inode, byte[] digest) {}

  private DigestStore() {}

  static boolean isVolatile(long filesystemType) {
    long type = filesystemType & 0xffffffffL;
    return type == TMPFS || type == RAMFS || type == SYSFS;
  }

  static void store(FileTree tree, byte[] root, List<Pending> pending, RelabelListener listener) {
    visit(tree, root, pending, (holder, name, directory) -> holder.setDigest(name, directory.digest(), directory.path()),
        (path, e) -> listener.warned("setxattr failed: " + Walk.text(path) + ": " + reason(e)));
  }

  /** What is done to each entry reached again, through the directory that holds it. */
  @FunctionalInterface
  interface Action {
    void apply(FileTree.Directory holder, byte[] name, Pending entry) throws IOException;
  }

  /** What is done when an entry cannot be reached again, or its action fails. */
  @FunctionalInterface
  interface OnFailure {
    void failed(byte[] path, IOException e);
  }

  /**
   * Reaches each entry of {@code pending} (all at or beneath {@code root}) again, in path order,
   * from the root's parent one {@code O_NOFOLLOW} directory at a time, sharing the ancestors
   * neighbours have in common, and applies {@code action} when the entry is still the one the
   * walk met (device and inode).
   */
  static void visit(FileTree tree, byte[] root, List<Pending> pending, Action action, OnFailure onFailure) {
    if (pending.isEmpty()) {
      return;
    }
    List<Pending> sorted = new java.util.ArrayList<>(pending);
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.path(), b.path()));
    // The open directories from the root's parent down, each with its path.
    Deque<byte[]> paths = new ArrayDeque<>();
    Deque<FileTree.Directory> opened = new ArrayDeque<>();
    try {
      byte[] base = parentOf(root);
      opened.push(tree.open(base));
      paths.push(base);
      for (Pending entry : sorted) {
        try {
          reach(entry, paths, opened, action);
        } catch (IOException e) {
          onFailure.failed(entry.path(), e);
        }
      }
    } catch (IOException e) {
      onFailure.failed(root, e);
    } finally {
      while (!opened.isEmpty()) {
        opened.pop().close();
      }
    }
  }

  private static void reach(Pending directory, Deque<byte[]> paths, Deque<FileTree.Directory> opened, Action action)
      throws IOException {
    byte[] path = directory.path();
    boolean isRoot = path.length == 1 && path[0] == '/';
    byte[] parent = isRoot ? path : parentOf(path);
    byte[] name = isRoot ? new byte[0] : Arrays.copyOfRange(path, parent.length == 1 ? 1 : parent.length + 1, path.length);
    // Close what is not an ancestor of this directory, keeping at least the base.
    while (paths.size() > 1 && !isAncestorOrSelf(paths.peek(), parent)) {
      paths.pop();
      opened.pop().close();
    }
    // Open down to the parent, never following a symlink.
    while (!Arrays.equals(paths.peek(), parent)) {
      byte[] at = paths.peek();
      int start = at.length == 1 ? 1 : at.length + 1;
      int end = start;
      while (end < parent.length && parent[end] != '/') {
        end++;
      }
      byte[] child = Arrays.copyOf(parent, end);
      opened.push(opened.peek().openChild(Arrays.copyOfRange(parent, start, end), child));
      paths.push(child);
    }
    FileTree.Directory holder = opened.peek();
    FileTree.Status now = holder.status(name, path);
    if (now.device() != directory.device() || now.inode() != directory.inode()) {
      throw new IOException("replaced since the walk met it; left alone");
    }
    action.apply(holder, name, directory);
  }

  private static boolean isAncestorOrSelf(byte[] ancestor, byte[] path) {
    if (ancestor.length == 1 && ancestor[0] == '/') {
      return true;
    }
    return path.length >= ancestor.length && Arrays.equals(path, 0, ancestor.length, ancestor, 0, ancestor.length)
        && (path.length == ancestor.length || path[ancestor.length] == '/');
  }

  private static byte[] parentOf(byte[] path) {
    int slash = path.length - 1;
    while (slash > 0 && path[slash] != '/') {
      slash--;
    }
    return slash <= 0 ? new byte[] {'/'} : Arrays.copyOf(path, slash);
  }

  private static String reason(IOException e) {
    return e instanceof NativeIoException n ? Errno.describe(n.errno()) : String.valueOf(e.getMessage());
  }
}
