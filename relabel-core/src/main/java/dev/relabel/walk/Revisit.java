package dev.relabel.walk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reaches entries a walk met again once the walk is done, without having kept a descriptor open:
 * from the root's parent (opened as the walk opened it), one {@code O_NOFOLLOW} directory at a
 * time, sharing the ancestors that neighbours have in common (the entries are taken in path
 * order), and only when the entry is still the one the walk met (device and inode). Directory
 * digests are stored this way, and the label of a multiply-linked file once all its names are
 * known.
 *
 * <p>A tree is as deep as its owner made it: past {@link #OPEN_LEVELS} levels a directory gives
 * its descriptor back while a deeper one is open, and is reopened through that one's {@code ..}
 * (as fts does), checked to be the directory it left (device and inode); if it is not (a
 * directory moved meanwhile), the levels without a descriptor are forgotten and the next entry is
 * reached by name again from the deepest one still held, as the first time. So a file linked
 * 10,000 levels down is labelled under a descriptor limit of a few hundred, and memory stays
 * linear in the depth (the open levels are prefixes of one path).
 */
final class Revisit {
  /** How many levels below the root's parent keep their descriptor while deeper ones are open. */
  static final int OPEN_LEVELS = 64;

  private static final byte[] DOT_DOT = {'.', '.'};

  /** An entry the walk met: where, and which inode it was. */
  interface Entry {
    byte[] path();

    long device();

    long inode();
  }

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
   * An open level: its path is the first {@code end} bytes of {@link #path}; {@code directory}
   * is null while given back, {@code device} and {@code inode} then say which directory it was.
   */
  private static final class Level {
    final int end;
    FileTree.Directory directory;
    long device;
    long inode;

    Level(int end, FileTree.Directory directory) {
      this.end = end;
      this.directory = directory;
    }
  }

  /** The levels open, from the root's parent down; each one's path a prefix of the deepest's. */
  private final List<Level> levels = new ArrayList<>();
  /** The deepest level's path (and so every level's). */
  private byte[] path;

  private Revisit() {}

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
    List<T> sorted = new ArrayList<>(pending);
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.path(), b.path()));
    Revisit revisit = new Revisit();
    try {
      revisit.path = parentOf(root);
      // As the walk reached the root: its parent's path resolved as the caller named it (a symlink
      // among its directories followed), for lookups only; everything below it O_NOFOLLOW.
      revisit.levels.add(new Level(revisit.path.length, tree.openForLookup(revisit.path)));
      for (T entry : sorted) {
        try {
          revisit.reach(entry, action);
        } catch (IOException e) {
          onFailure.failed(entry.path(), e);
        }
      }
    } catch (IOException e) {
      onFailure.failed(root, e);
    } finally {
      for (Level level : revisit.levels) {
        if (level.directory != null) {
          level.directory.close();
        }
      }
    }
  }

  private <T extends Entry> void reach(T entry, Action<T> action) throws IOException {
    byte[] entryPath = entry.path();
    boolean isRoot = entryPath.length == 1 && entryPath[0] == '/';
    byte[] parent = isRoot ? entryPath : parentOf(entryPath);
    byte[] name = isRoot ? new byte[0]
        : Arrays.copyOfRange(entryPath, parent.length == 1 ? 1 : parent.length + 1, entryPath.length);
    // Up to the deepest level that holds the entry's parent, keeping at least the base.
    int keep = levels.size();
    while (keep > 1 && !isAncestorOrSelf(path, levels.get(keep - 1).end, parent)) {
      keep--;
    }
    ascendTo(keep);
    path = parent;
    // Down to the parent, never following a symlink.
    while (last().end != parent.length) {
      Level at = last();
      int start = at.end == 1 ? 1 : at.end + 1;
      int end = start;
      while (end < parent.length && parent[end] != '/') {
        end++;
      }
      FileTree.Directory child = at.directory.openChild(Arrays.copyOfRange(parent, start, end), Arrays.copyOf(parent, end));
      if (levels.size() > OPEN_LEVELS) {
        try {
          FileTree.Status own = at.directory.status(new byte[0], Arrays.copyOf(parent, at.end));
          at.device = own.device();
          at.inode = own.inode();
        } catch (IOException e) {
          child.close();
          throw e;
        }
        at.directory.close();
        at.directory = null;
      }
      levels.add(new Level(end, child));
    }
    FileTree.Directory holder = last().directory;
    FileTree.Status now = holder.status(name, entryPath);
    if (now.device() != entry.device() || now.inode() != entry.inode()) {
      throw new IOException("replaced since the walk met it; left alone");
    }
    action.apply(holder, name, entry);
  }

  /**
   * Closes the levels below the first {@code keep}, reopening each level given back through its
   * child's {@code ..}; when that is not the directory it was, forgets the levels given back.
   */
  private void ascendTo(int keep) {
    while (levels.size() > keep) {
      Level done = levels.remove(levels.size() - 1);
      Level above = last();
      try {
        if (above.directory == null) {
          above.directory = reopen(done.directory, above);
        }
      } finally {
        done.directory.close();
      }
      // Not the directory it was: the levels given back are forgotten, and the walk goes on up
      // the levels still held (the next entry's parent may lie above them too).
      while (last().directory == null) {
        levels.remove(levels.size() - 1);
      }
    }
  }

  /** {@code above} through {@code child}'s {@code ..}, or null when that is not the directory {@code above} was. */
  private FileTree.Directory reopen(FileTree.Directory child, Level above) {
    byte[] shown = Arrays.copyOf(path, above.end);
    FileTree.Directory parent;
    try {
      parent = child.openChild(DOT_DOT, shown);
    } catch (IOException e) {
      return null;
    }
    try {
      FileTree.Status own = parent.status(new byte[0], shown);
      if (own.device() == above.device && own.inode() == above.inode) {
        return parent;
      }
    } catch (IOException e) {
      // Not known to be the directory it was: reached by name again.
    }
    parent.close();
    return null;
  }

  private Level last() {
    return levels.get(levels.size() - 1);
  }

  /** Whether the first {@code length} bytes of {@code ancestor} name {@code path} or a directory above it. */
  private static boolean isAncestorOrSelf(byte[] ancestor, int length, byte[] path) {
    if (length == 1 && ancestor[0] == '/') {
      return true;
    }
    return path.length >= length && Arrays.equals(path, 0, length, ancestor, 0, length)
        && (path.length == length || path[length] == '/');
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
