package dev.relabel.walk;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 *
 * <p>The same reading of the table finds the directory cycles ({@link #cycles}): the walk reports
 * them and does not enter them (it finds them itself, {@link Ancestry}), so what lies behind one is
 * not shown twice, and is not listed.
 */
final class BoundTwice {
  private BoundTwice() {}

  /**
   * The inodes (device, inode) that mounts inside {@code root} may show under a second name, read
   * through {@code tree}; empty when none. A part that cannot be read is left out: the walk reports
   * its own failure there. Nothing within a directory cycle is listed.
   */
  static Set<Walk.Inode> find(FileTree tree, String root, List<MountTable.Mount> mounts) {
    Views found = views(root, mounts);
    List<String> parts = found == null ? List.of() : repeatedParts(root, mounts, found);
    if (parts.isEmpty()) {
      return Set.of();
    }
    Set<String> cycles = found.cycles();
    Set<Walk.Inode> inodes = new HashSet<>();
    for (String part : parts) {
      byte[] path = part.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
      try (FileTree.Directory directory = tree.open(path)) {
        FileTree.Status status = directory.status(new byte[0], path);
        inodes.add(new Walk.Inode(status.device(), status.inode()));
        collect(directory, path, status, cycles, inodes);
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

  /** A directory {@link #collect} is listing: open, its entries, the next one to look at. */
  private static final class Listing {
    final FileTree.Directory directory;
    final byte[] path;
    final Ancestry ancestry;
    final List<FileTree.Entry> entries;
    int next;

    Listing(FileTree.Directory directory, byte[] path, Ancestry ancestry) throws IOException {
      this.directory = directory;
      this.path = path;
      this.ancestry = ancestry;
      this.entries = directory.entries();
    }
  }

  /**
   * Every entry beneath {@code part} (open, of status {@code status}) on its filesystem, none within
   * a directory cycle: one of {@code cycles}, or a directory that is one above it ({@link Ancestry},
   * as the walk finds them). Depth first, one directory open a level, as a recursion would, but on
   * a stack of its own: a tree thousands deep inside a part, listed by recursion, ran the thread's
   * stack out, and the whole root was reported as an internal error and left unwalked. Past the
   * descriptors the process may hold, a subdirectory is left out (the walk, which holds a few at
   * any depth, still labels it).
   */
  private static void collect(FileTree.Directory part, byte[] path, FileTree.Status status, Set<String> cycles,
      Set<Walk.Inode> inodes) {
    long device = status.device();
    Deque<Listing> listing = new ArrayDeque<>();
    try {
      listing.push(new Listing(part, path, Ancestry.root(status)));
      while (!listing.isEmpty()) {
        Listing at = listing.peek();
        if (at.next == at.entries.size()) {
          listing.pop();
          if (at.directory != part) {
            at.directory.close();
          }
          continue;
        }
        FileTree.Entry entry = at.entries.get(at.next++);
        byte[] child = Walk.join(at.path, entry.name());
        try {
          FileTree.Status childStatus = at.directory.status(entry, child);
          if (childStatus.device() != device) {
            continue;
          }
          inodes.add(new Walk.Inode(childStatus.device(), childStatus.inode()));
          if (childStatus.type() == dev.relabel.policy.FileType.DIRECTORY && !at.ancestry.isCycle(childStatus)
              && (cycles.isEmpty() || !cycles.contains(dev.relabel.policy.PathBytes.latin1(child)))) {
            FileTree.Directory sub = at.directory.openChild(entry.name(), child);
            try {
              listing.push(new Listing(sub, child, at.ancestry.child(childStatus)));
            } catch (IOException e) {
              sub.close();
              throw e;
            }
          }
        } catch (IOException e) {
          // Gone or unreadable: the walk reports what it meets there.
        }
      }
    } catch (IOException e) {
      // The part itself could not be listed: the walk reports it.
    } finally {
      for (Listing left : listing) {
        if (left.directory != part) {
          left.directory.close();
        }
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
    Views found = views(root, mounts);
    return found == null ? List.of() : repeatedParts(root, mounts, found);
  }

  /** {@link #repeatedParts(String, List)} from the views of the root already found. */
  private static List<String> repeatedParts(String root, List<MountTable.Mount> mounts, Views found) {
    MountTable.Mount own = found.own();
    List<MountTable.Mount> reached = found.reached();
    // Where the walk's root lies in the filesystem, as the root's own mount shows it.
    String rootInFilesystem = inFilesystem(root, own);
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
    // What lies behind a cycle is never walked: shown there, it is not shown twice.
    parts.removeIf(part -> found.cycles().stream().anyMatch(cycle -> within(part, cycle)));
    return List.copyOf(parts);
  }

  /**
   * Whether some filesystem is mounted in two places (a bind mount, or one mounted twice): without
   * that, no entry is shown under two names and no directory cycle can be.
   */
  static boolean anyMountedTwice(List<MountTable.Mount> mounts) {
    Set<String> devices = new HashSet<>();
    for (MountTable.Mount mount : mounts) {
      if (!devices.add(mount.device())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The directories inside {@code root} (one char per byte, as the mount table spells them) that
   * the walk would meet as a directory cycle, as fts reports one (FTS_DC: a directory that is one
   * of those it is inside): the point of a bind mount, of the root's own filesystem and reached
   * through it, of a directory above it ({@code mount --bind / /mnt}, a directory bound onto one
   * of its own subdirectories), or the place in such a mount that shows the root again (a directory
   * above the root bound beneath it). What lies beyond is the walk's own tree under other names;
   * setfiles reports the cycle ("Directory cycle on PATH.") and does not enter it: neither
   * {@link #repeatedParts} nor {@link #find} counts what lies there.
   */
  static Set<String> cycles(String root, List<MountTable.Mount> mounts) {
    Views found = views(root, mounts);
    return found == null ? Set.of() : found.cycles();
  }

  /**
   * The root's own mount; the mounts inside the root that the walk enters (of the root's
   * filesystem, reached through such mounts alone, none a cycle), shortest point first; the
   * points of those that are cycles. Null when no mount holds the root.
   */
  private record Views(MountTable.Mount own, List<MountTable.Mount> reached, Set<String> cycles) {}

  private static Views views(String root, List<MountTable.Mount> mounts) {
    // The mount the root lies on: the longest mount point holding it, the last listed (on top).
    MountTable.Mount own = null;
    for (MountTable.Mount mount : mounts) {
      if (within(root, mount.point()) && (own == null || mount.point().length() >= own.point().length())) {
        own = mount;
      }
    }
    if (own == null) {
      return null;
    }
    // The mounts inside the root, the top one of each point (hosts running containers have
    // thousands: each found by its point, not by a search of the others).
    java.util.Map<String, MountTable.Mount> inside = new java.util.LinkedHashMap<>();
    for (MountTable.Mount mount : mounts) {
      if (!mount.point().equals(root) && within(mount.point(), root)) {
        inside.remove(mount.point());
        inside.put(mount.point(), mount);
      }
    }
    List<MountTable.Mount> byLength = new ArrayList<>(inside.values());
    byLength.sort(java.util.Comparator.comparingInt(m -> m.point().length()));
    // Those the walk enters: of its own filesystem, held by the root's mount or by one it entered.
    java.util.Map<String, MountTable.Mount> reached = new java.util.LinkedHashMap<>();
    Set<String> cycles = new java.util.LinkedHashSet<>();
    for (MountTable.Mount mount : byLength) {
      if (!mount.device().equals(own.device())) {
        continue;
      }
      MountTable.Mount holder = own;
      for (String above = parent(mount.point()); !above.equals(root) && within(above, root); above = parent(above)) {
        if (inside.containsKey(above)) {
          holder = inside.get(above);
          break;
        }
      }
      if (holder == own || reached.get(holder.point()) == holder) {
        String cycle = cycleIn(mount, root, own, reached);
        if (cycle != null) {
          cycles.add(cycle);
        }
        if (!mount.point().equals(cycle)) {
          reached.put(mount.point(), mount);
        }
      }
    }
    return new Views(own, List.copyOf(reached.values()), Set.copyOf(cycles));
  }

  /** The directory holding {@code path} (absolute, normalized, not "/"). */
  private static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash == 0 ? "/" : path.substring(0, slash);
  }

  /**
   * Where the walk, going down into {@code mount}, would meet a directory it is inside (fts's
   * cycle): the shallowest place in the mount that shows the filesystem directory one of the walk's
   * directories above the mount point shows (the root, or one beneath it), each seen through the
   * view it lies in; the mount point itself when the mount shows one of them. Null when none.
   */
  private static String cycleIn(MountTable.Mount mount, String root, MountTable.Mount own,
      java.util.Map<String, MountTable.Mount> reached) {
    String cycle = null;
    String above = mount.point();
    do {
      above = parent(above);
      // The view the walk sees this directory through: the longest reached mount point holding it.
      MountTable.Mount view = own;
      for (String at = above; within(at, root); at = parent(at)) {
        MountTable.Mount held = reached.get(at);
        if (held != null) {
          view = held;
          break;
        }
        if (at.equals(root) || at.equals("/")) {
          break;
        }
      }
      String shown = inFilesystem(above, view);
      if (within(shown, mount.root())) {
        String at = shownAt(mount, shown);
        if (cycle == null || at.length() < cycle.length()) {
          cycle = at;
        }
      }
    } while (!above.equals(root) && !above.equals("/"));
    return cycle;
  }

  /** The filesystem path that {@code view} shows at {@code path} (which lies within its point). */
  private static String inFilesystem(String path, MountTable.Mount view) {
    String rest = view.point().equals("/") ? path : path.substring(view.point().length());
    if (view.root().equals("/")) {
      return rest.isEmpty() ? "/" : rest;
    }
    return rest.equals("/") ? view.root() : view.root() + rest;
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
