package dev.relabel.walk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The entries a walk of one root may meet under two names although each has a single link: those
 * shown by a bind mount, inside the root, of a part of the root's own filesystem that the walk
 * also reaches another way (a directory of the tree bound onto another of its names, a file onto
 * another name, one directory bound in two places). setfiles ties every inode to the first name
 * its walk met and leaves the other names alone, reporting those whose spec differs; without
 * this, relabel would write each name in turn, the last one's label winning, and at {@code -T 2}
 * a mixture. The walk puts these entries with the multiply-linked files, whose rule is setfiles'
 * (see {@link Walk#labelMultiLinked}).
 *
 * <p>Found from the mount table before the root is walked, and only where some mount inside the
 * root is of the root's own filesystem (usually none: then nothing is read but the table). Which
 * parts are shown twice is decided by the mounts' filesystem roots: a mount whose root lies within
 * another view's (another such mount's, or the part the root's own mount shows where the walk goes)
 * repeats all it shows, one whose root holds another view's repeats that view's part, unless a
 * mount covers the other view there (a directory bound onto itself, to remount it read-only, shows
 * each name once). What those parts hold is listed, their subdirectories on the same filesystem
 * included; the walk then defers every entry of those inodes, under whichever name it meets them.
 * Listing more than is repeated (a mount stacked in a way the table does not tell) only defers
 * entries that did not need it: each is still labelled by its own spec when the root is done.
 */
final class BoundTwice {
  private BoundTwice() {}

  /**
   * The inodes (device, inode) that mounts inside {@code root} may show under a second name, read
   * through {@code tree}; empty when none. A part that cannot be read is left out: the walk reports
   * its own failure there.
   */
  static Set<Walk.Inode> find(FileTree tree, String root, List<MountTable.Mount> mounts) {
    List<String> parts = repeatedParts(root, mounts);
    if (parts.isEmpty()) {
      return Set.of();
    }
    Set<Walk.Inode> inodes = new HashSet<>();
    for (String part : parts) {
      byte[] path = part.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
      try (FileTree.Directory directory = tree.open(path)) {
        FileTree.Status status = directory.status(new byte[0], path);
        inodes.add(new Walk.Inode(status.device(), status.inode()));
        collect(directory, path, status.device(), inodes);
      } catch (IOException e) {
        // Not a directory (a file bound onto a name), or unreadable: its own status.
        addStatus(tree, path, inodes);
      }
    }
    return inodes;
  }

  /** A part that is not a directory (a file bound onto a name): its identity, through its parent. */
  private static void addStatus(FileTree tree, byte[] path, Set<Walk.Inode> inodes) {
    byte[] parent = Revisit.parentOf(path);
    byte[] name = java.util.Arrays.copyOfRange(path, parent.length == 1 ? 1 : parent.length + 1, path.length);
    try (FileTree.Directory directory = tree.openForLookup(parent)) {
      FileTree.Status status = directory.status(name, path);
      inodes.add(new Walk.Inode(status.device(), status.inode()));
    } catch (IOException e) {
      // Gone or unreadable: the walk reports what it meets there.
    }
  }

  /** Every entry beneath {@code directory} on {@code device}, depth first. */
  private static void collect(FileTree.Directory directory, byte[] path, long device, Set<Walk.Inode> inodes) {
    List<FileTree.Entry> entries;
    try {
      entries = directory.entries();
    } catch (IOException e) {
      return;
    }
    for (FileTree.Entry entry : entries) {
      byte[] child = Walk.join(path, entry.name());
      try {
        FileTree.Status status = directory.status(entry, child);
        if (status.device() != device) {
          continue;
        }
        inodes.add(new Walk.Inode(status.device(), status.inode()));
        if (status.type() == dev.relabel.policy.FileType.DIRECTORY) {
          try (FileTree.Directory sub = directory.openChild(entry.name(), child)) {
            collect(sub, child, device, inodes);
          }
        }
      } catch (IOException e) {
        // Gone or unreadable: the walk reports what it meets there.
      }
    }
  }

  /**
   * The paths inside {@code root} (one char per byte, absolute, normalized) under which the walk may
   * meet an entry it also meets under another name: in a mount of the root's filesystem, reached
   * from the root through that filesystem alone, the part that another view of the filesystem the
   * walk goes through (the root's own mount, or another such mount) shows too, where no mount
   * covers it there.
   */
  static List<String> repeatedParts(String root, List<MountTable.Mount> mounts) {
    // The mount the root lies on: the longest mount point holding it, the last listed (on top).
    MountTable.Mount own = null;
    for (MountTable.Mount mount : mounts) {
      if (within(root, mount.point()) && (own == null || mount.point().length() >= own.point().length())) {
        own = mount;
      }
    }
    if (own == null) {
      return List.of();
    }
    // The mounts inside the root, the top one of each point, each with the device of the mount
    // that holds it: the walk enters one only through mounts of its own filesystem.
    List<MountTable.Mount> inside = new ArrayList<>();
    for (MountTable.Mount mount : mounts) {
      if (!mount.point().equals(root) && within(mount.point(), root)) {
        inside.removeIf(earlier -> earlier.point().equals(mount.point()));
        inside.add(mount);
      }
    }
    inside.sort(java.util.Comparator.comparingInt(m -> m.point().length()));
    List<MountTable.Mount> reached = new ArrayList<>();
    for (MountTable.Mount mount : inside) {
      // The longest mount point above this one (the list is sorted by length), else the root's own.
      MountTable.Mount holder = own;
      for (MountTable.Mount candidate : inside) {
        if (candidate.point().length() < mount.point().length() && within(mount.point(), candidate.point())) {
          holder = candidate;
        }
      }
      if (mount.device().equals(own.device()) && (holder == own || reached.contains(holder))) {
        reached.add(mount);
      }
    }
    // Where the walk's root lies in the filesystem, as the root's own mount shows it.
    String rootInFilesystem = own.point().equals(root) ? own.root()
        : (own.root().equals("/") ? "" : own.root()) + root.substring(own.point().equals("/") ? 0 : own.point().length());
    List<MountTable.Mount> views = new ArrayList<>(reached);
    views.add(0, own);
    java.util.Set<String> parts = new java.util.LinkedHashSet<>();
    for (MountTable.Mount mount : reached) {
      for (MountTable.Mount other : views) {
        if (other == mount) {
          continue;
        }
        if (within(mount.root(), other.root())) {
          // The other view shows all this mount shows (the root's own mount only where the walk goes;
          // a directory bound onto itself, to remount it read-only, covers its own source).
          String there = shownAt(other, mount.root());
          if ((other != own || overlaps(root, there)) && !covered(there, other, mounts)) {
            parts.add(mount.point());
          }
        } else if (within(other.root(), mount.root())) {
          // This mount shows the other view's part as well: of the root's own mount, what the walk
          // goes through.
          String shown = other == own ? rootInFilesystem : other.root();
          if (within(shown, mount.root())) {
            String here = shownAt(mount, shown);
            if (!covered(here, mount, mounts)) {
              parts.add(here);
            }
          }
        }
      }
    }
    return List.copyOf(parts);
  }

  /** Whether a mount below {@code view}'s point covers {@code path}, which {@code view} would show there. */
  private static boolean covered(String path, MountTable.Mount view, List<MountTable.Mount> mounts) {
    for (MountTable.Mount mount : mounts) {
      if (!mount.point().equals(view.point()) && within(mount.point(), view.point()) && within(path, mount.point())) {
        return true;
      }
    }
    return false;
  }

  /** Where {@code mount} shows its filesystem's directory {@code fsPath} (which lies within its root). */
  private static String shownAt(MountTable.Mount mount, String fsPath) {
    String rest = mount.root().equals("/") ? fsPath : fsPath.substring(mount.root().length());
    if (rest.isEmpty() || rest.equals("/")) {
      return mount.point();
    }
    return mount.point().equals("/") ? rest : mount.point() + rest;
  }

  /** Whether one of the two paths lies within the other. */
  private static boolean overlaps(String a, String b) {
    return within(a, b) || within(b, a);
  }

  /** Whether {@code path} is {@code directory} or lies beneath it. */
  static boolean within(String path, String directory) {
    if (directory.equals("/")) {
      return path.startsWith("/");
    }
    return path.startsWith(directory) && (path.length() == directory.length() || path.charAt(directory.length()) == '/');
  }
}
