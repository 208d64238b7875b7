package dev.relabel.walk;

import dev.relabel.nativeio.Errno;
import dev.relabel.nativeio.NativeIoException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Stores directory digests once a root has been labelled. The walk keeps no descriptor open for
 * this, so each directory is reached again from the root, one {@code O_NOFOLLOW} component at a
 * time, sharing the opened ancestors between neighbours (the paths are sorted), and written only
 * if it is still the directory (device and inode) the walk labelled.
 */
final class DigestStore {
  /** {@code TMPFS_MAGIC}, {@code RAMFS_MAGIC}, {@code SYSFS_MAGIC}: libselinux keeps no digest there. */
  private static final long TMPFS = 0x01021994L;
  private static final long RAMFS = 0x858458f6L;
  private static final long SYSFS = 0x62656572L;

  /** A directory the walk labelled, and the digest it is to get. */
  record Pending(byte[] path, long device, long inode, byte[] digest) {}

  private DigestStore() {}

  static boolean isVolatile(long filesystemType) {
    long type = filesystemType & 0xffffffffL;
    return type == TMPFS || type == RAMFS || type == SYSFS;
  }

  static void store(FileTree tree, byte[] root, List<Pending> pending, RelabelListener listener) {
    if (pending.isEmpty()) {
      return;
    }
    pending.sort((a, b) -> Arrays.compareUnsigned(a.path(), b.path()));
    // The open directories from the root's parent down, each with its path.
    Deque<byte[]> paths = new ArrayDeque<>();
    Deque<FileTree.Directory> opened = new ArrayDeque<>();
    try {
      byte[] base = parentOf(root);
      opened.push(tree.open(base));
      paths.push(base);
      for (Pending directory : pending) {
        try {
          store(directory, paths, opened);
        } catch (IOException e) {
          listener.warned("setxattr failed: " + Walk.text(directory.path()) + ": " + reason(e));
        }
      }
    } catch (IOException e) {
      listener.warned("setxattr failed: " + Walk.text(root) + ": " + reason(e));
    } finally {
      while (!opened.isEmpty()) {
        opened.pop().close();
      }
    }
  }

  private static void store(Pending directory, Deque<byte[]> paths, Deque<FileTree.Directory> opened)
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
      throw new IOException("replaced since it was labelled; digest not stored");
    }
    holder.setDigest(name, directory.digest(), path);
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
