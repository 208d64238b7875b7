package dev.relabel.walk;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Reaches entries a walk met again once the walk is done, without having kept a descriptor open:
 * from the root's parent (opened as the walk opened it), one {@code O_NOFOLLOW} directory at a
 * time, sharing the ancestors that neighbours have in common (the entries are taken in path
 * order), and only when the entry is still the one the walk met (device and inode). Directory
 * digests are stored this way, and the label of a multiply-linked file once all its names are
 * known.
 */
final class Revisit {
  /** An entry the walk met: where, and which inode it was. */
  interface Entry {
    byte[] path();

    long device();

    long inode();
  }

  private Revisit() {}

  /** What is done to each entry reached again, through the directory that holds it. */
  @FunctionalInterface
  interface Action<T extends Entry> {
    void apply(FileTree.Directory holder, byte[] name, T entry) throws IOException;
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
  static <T extends Entry> void visit(FileTree tree, byte[] root, List<T> pending, Action<T> action,
      OnFailure onFailure) {
    if (pending.isEmpty()) {
      return;
    }
    List<T> sorted = new java.util.ArrayList<>(pending);
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.path(), b.path()));
    // The open directories from the root's parent down, each with its path.
    Deque<byte[]> paths = new ArrayDeque<>();
    Deque<FileTree.Directory> opened = new ArrayDeque<>();
    try {
      byte[] base = parentOf(root);
      // As the walk reached the root: its parent's path resolved as the caller named it (a symlink
      // among its directories followed), for lookups only; everything below it O_NOFOLLOW.
      opened.push(tree.openForLookup(base));
      paths.push(base);
      for (T entry : sorted) {
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

  private static <T extends Entry> void reach(T entry, Deque<byte[]> paths, Deque<FileTree.Directory> opened,
      Action<T> action) throws IOException {
    byte[] path = entry.path();
    boolean isRoot = path.length == 1 && path[0] == '/';
    byte[] parent = isRoot ? path : parentOf(path);
    byte[] name = isRoot ? new byte[0] : Arrays.copyOfRange(path, parent.length == 1 ? 1 : parent.length + 1, path.length);
    // Close what is not an ancestor of this entry, keeping at least the base.
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
    if (now.device() != entry.device() || now.inode() != entry.inode()) {
      throw new IOException("replaced since the walk met it; left alone");
    }
    action.apply(holder, name, entry);
  }

  private static boolean isAncestorOrSelf(byte[] ancestor, byte[] path) {
    if (ancestor.length == 1 && ancestor[0] == '/') {
      return true;
    }
    return path.length >= ancestor.length && Arrays.equals(path, 0, ancestor.length, ancestor, 0, ancestor.length)
        && (path.length == ancestor.length || path[ancestor.length] == '/');
  }

  /** The directory holding {@code path} (absolute, normalized): "/" for one in "/". */
  static byte[] parentOf(byte[] path) {
    int slash = path.length - 1;
    while (slash > 0 && path[slash] != '/') {
      slash--;
    }
    return slash <= 0 ? new byte[] {'/'} : Arrays.copyOf(path, slash);
  }
}
