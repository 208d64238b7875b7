package dev.relabel.cli.fixfiles;

import dev.relabel.nativeio.DirEntry;
import dev.relabel.nativeio.FileStat;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.nativeio.OpenedStat;
import dev.relabel.policy.PathBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What {@code fixfiles relabel} does to /tmp and its kin around the relabel: empty /tmp (when the
 * admin says so), remove stale session directories, and give entries the kernel would call
 * unlabelled the label of their top directory. Never goes below a mount point, of another
 * filesystem or a bind mount of /tmp's own (fixfiles' find goes into both; a mount point below
 * /tmp is left alone here, see {@link #mountedOn}).
 *
 * <p>It runs as root in directories every user can write, so every entry is reached through its
 * directory's descriptor (openat, statx, the *xattrat calls and unlinkat, none following a
 * symlink), as find(1) and rm(1) reach them: a user who swaps a directory of /tmp for a symlink to
 * /etc while this runs gets the symlink removed or skipped, never /etc's files removed or given
 * /tmp's label. An entry that cannot be handled is reported to {@code problems} and the rest goes
 * on; one that vanished meanwhile is passed over.
 */
public final class TmpCleanup {
  /** Where the policy's initial contexts are shown when SELinux is enabled. */

  /** The session directories fixfiles removes from /tmp after a relabel. */
  private static final List<String> STALE_PREFIXES = List.of("gconfd-", "pulse-", "orbit-");
  private static final byte[] PARENT = {'.', '.'};
  /**
   * How many levels below a walk's top keep their descriptor while the walk is below them. A
   * deeper one gives it back while its subdirectory is walked and reopens itself through the
   * subdirectory's {@code ..} afterwards, checked to be the same directory, as fts(3) does for
   * find and rm: a tree in /tmp deeper than the descriptors the process may hold is cleaned up
   * whole.
   */
  static final int OPEN_LEVELS = 64;

  private final FixfilesHost host;
  private final Consumer<String> problems;
  private final Kernel kernel;

  /** @param problems told {@code PATH: REASON} for each entry that could not be handled */
  TmpCleanup(FixfilesHost host, Consumer<String> problems) {
    this(host, problems, Kernel.linux());
  }

  /** With {@code kernel} to make its calls (a test's, which changes the tree between two of them). */
  TmpCleanup(FixfilesHost host, Consumer<String> problems, Kernel kernel) {
    this.host = host;
    this.problems = problems;
    this.kernel = kernel;
  }

  /** fixfiles' {@code find /tmp/ -mindepth 1 -delete}: everything below /tmp. */
  void empty() {
    walkTop("/tmp", (directory, entry) -> removeTree(directory, entry));
  }

  /**
   * fixfiles' clean-up after a relabel: {@code rm -rf /tmp/gconfd-* /tmp/pulse-* /tmp/orbit-*};
   * in /tmp, sockets and FIFOs the kernel would call unlabelled are removed; then every entry of
   * /tmp, /var/tmp, /var/run (and /var/lib/debug, with /lib's label) whose type is the policy's
   * unlabelled or file type, or that has no label at all (which the kernel shows as the file
   * type), gets its top directory's label ({@code chcon --no-dereference --reference}).
   */
  void afterRelabel() {
    walkTop("/tmp", (directory, entry) -> {
      String name = new String(entry.name(), StandardCharsets.ISO_8859_1);
      if (STALE_PREFIXES.stream().anyMatch(name::startsWith)) {
        removeTree(directory, entry);
      }
    });
    // one type where the policy gives both initial contexts the same (refpolicy, Debian's: unlabeled_t)
    Set<String> unlabelled = Set.copyOf(List.of(initialType("unlabeled", "unlabeled_t"), initialType("file", "file_t")));
    relabelUnlabelled("/tmp", "/tmp", unlabelled, true);
    relabelUnlabelled("/var/tmp", "/var/tmp", unlabelled, false);
    relabelUnlabelled("/var/run", "/var/run", unlabelled, false);
    relabelUnlabelled("/var/lib/debug", "/lib", unlabelled, false);
  }

  /**
   * A path as the walks hold it: its directory's and its own name, so that a level holds its name
   * only (a tree thousands deep costs memory linear in its depth, not its square); the bytes are
   * made when a call or a message needs them.
   */
  private record PathName(PathName parent, byte[] name) {
    byte[] bytes() {
      int length = name.length;
      for (PathName at = parent; at != null; at = at.parent) {
        length += at.name.length + 1;
      }
      byte[] bytes = new byte[length];
      int end = length;
      for (PathName at = this; at != null; at = at.parent) {
        end -= at.name.length;
        System.arraycopy(at.name, 0, bytes, end, at.name.length);
        if (at.parent != null) {
          bytes[--end] = '/';
        }
      }
      return bytes;
    }
  }

  /**
   * An open directory of the walk: its descriptor (-1 while given back, see {@link #OPEN_LEVELS}),
   * its path, and which directory it is (filesystem and inode).
   */
  private static final class Directory {
    int fd;
    final PathName pathName;
    final long device;
    final long inode;

    Directory(int fd, PathName pathName, FileStat stat) {
      this.fd = fd;
      this.pathName = pathName;
      this.device = stat.device();
      this.inode = stat.inode();
    }

    byte[] path() {
      return pathName.bytes();
    }
  }

  /**
   * One entry of a directory: its path's names (its own as listed, no NUL, last), its path's
   * bytes, and the inode the listing gave (a mount point's: the covered directory's).
   */
  private record Entry(PathName pathName, byte[] path, long listedInode) {
    byte[] name() {
      return pathName.name();
    }
  }

  @FunctionalInterface
  private interface Visitor {
    void visit(Directory directory, Entry entry);
  }

  /**
   * Opens the top directory {@code top} (under the host's root; a symlink there is not followed:
   * nothing is done) and hands each of its entries to {@code visitor}.
   */
  private void walkTop(String top, Visitor visitor) {
    Directory directory = openTop(top);
    if (directory == null) {
      return;
    }
    try {
      eachEntry(directory, visitor);
    } finally {
      kernel.close(directory.fd);
    }
  }

  /** The top directory {@code top} opened, or null when it is missing, no directory, or a symlink. */
  private Directory openTop(String top) {
    byte[] path = bytes(host.real(top));
    int fd;
    try {
      fd = kernel.openDirectory(Kernel.AT_FDCWD, Kernel.nul(path), path);
    } catch (NativeIoException.NotFollowedException e) {
      return null;
    } catch (NativeIoException e) {
      report(e, path);
      return null;
    }
    try {
      return new Directory(fd, new PathName(null, path), kernel.stat(fd, Kernel.self(), path));
    } catch (NativeIoException e) {
      kernel.close(fd);
      report(e, path);
      return null;
    }
  }

  private void eachEntry(Directory directory, Visitor visitor) {
    for (Iterator<DirEntry> entries = listing(directory); entries.hasNext(); ) {
      visitor.visit(directory, entryOf(directory, entries.next()));
    }
  }

  /** {@code directory}'s entries, read at once; none (the failure reported) when it cannot be read. */
  private Iterator<DirEntry> listing(Directory directory) {
    try {
      return kernel.readDirectory(directory.fd, directory.path()).iterator();
    } catch (NativeIoException e) {
      report(e, directory.path());
      return Collections.emptyIterator();
    }
  }

  private static Entry entryOf(Directory directory, DirEntry entry) {
    PathName name = new PathName(directory.pathName, entry.name());
    return new Entry(name, name.bytes(), entry.inode());
  }

  /**
   * A directory the walk is in, what is left of its listing, and its parent (null for a walk's
   * top). The walks keep these on a stack of their own, as find and rm do: any user may make a
   * tree in /tmp as deep as they like, and a walk that recursed would die of a StackOverflowError
   * in it, the clean-up unfinished.
   */
  private record Level(Directory directory, Iterator<DirEntry> remaining, Directory parent) {}

  /**
   * Closes {@code level}, just popped from {@code levels}, for its parent, reopened first when it
   * gave its descriptor back; false when the parent could not be reached again (said): the levels
   * that gave theirs back are then left, and the walk goes on from the nearest one still open, as
   * every level above {@link #OPEN_LEVELS} is.
   */
  private boolean leave(Level level, Deque<Level> levels) {
    boolean back;
    try {
      back = backTo(level.parent(), level.directory());
    } finally {
      kernel.close(level.directory().fd);
    }
    while (!back && !levels.isEmpty() && levels.peek().directory().fd < 0) {
      levels.pop();
    }
    return back;
  }

  /**
   * After entering a subdirectory of {@code parent}, {@code parentDepth} levels below the walk's
   * top: gives the parent's descriptor back when that is {@link #OPEN_LEVELS} or more.
   */
  private void entered(Directory parent, int parentDepth) {
    if (parentDepth >= OPEN_LEVELS) {
      kernel.close(parent.fd);
      parent.fd = -1;
    }
  }

  /**
   * Before leaving {@code child} for {@code parent}: reopens the parent, when it gave its descriptor
   * back, as {@code child}'s {@code ..}; false, reported, when that is no longer the parent (the
   * child was moved meanwhile) or cannot be opened.
   */
  private boolean backTo(Directory parent, Directory child) {
    if (parent.fd >= 0) {
      return true;
    }
    byte[] path = parent.path();
    try {
      int fd = kernel.openDirectory(child.fd, PARENT, path);
      FileStat stat;
      try {
        stat = kernel.stat(fd, Kernel.self(), path);
      } catch (NativeIoException e) {
        kernel.close(fd);
        throw e;
      }
      if (stat.device() != parent.device || stat.inode() != parent.inode) {
        kernel.close(fd);
        problems.accept(PathBytes.text(path) + ": moved while it was cleaned up; left as it is");
        return false;
      }
      parent.fd = fd;
      return true;
    } catch (NativeIoException e) {
      report(e, path);
      return false;
    }
  }

  /**
   * Opens {@code entry}, a directory of {@code parent}, without following a symlink and only on
   * {@code parent}'s mount; null (a mount point, or no directory: it was swapped meanwhile) when it
   * is not to be entered.
   */
  private Directory enter(Directory parent, Entry entry) throws NativeIoException {
    int fd;
    try {
      fd = kernel.openDirectory(parent.fd, entry.name(), entry.path());
    } catch (NativeIoException.NotFollowedException e) {
      return null;
    }
    OpenedStat opened;
    try {
      opened = kernel.statOpened(fd, entry.path());
    } catch (NativeIoException e) {
      kernel.close(fd);
      throw e;
    }
    if (opened.stat().device() != parent.device || mountedOn(opened, entry)) {
      kernel.close(fd);
      return null;
    }
    return new Directory(fd, entry.pathName(), opened.stat());
  }

  /**
   * Whether the directory opened as {@code entry} ({@code opened}) is the root of a mount there.
   * Its device alone does not tell a bind mount of the very filesystem /tmp is on (an admin's
   * {@code mount --bind /srv/data /tmp/build/data}, or one fixfiles -M left behind when it was
   * killed: {@code /} itself bound in /tmp): emptying /tmp went into it and removed the files it
   * shows. statx says so since Linux 5.8; before, the inode the listing gave, the covered
   * directory's, differs from the opened one's (on an overlayfs that numbers its listings
   * otherwise, a directory is then left as a mount point would be: kept, never removed wrongly).
   */
  private static boolean mountedOn(OpenedStat opened, Entry entry) {
    return opened.mountRoot().orElseGet(() -> opened.stat().inode() != entry.listedInode());
  }

  /** rm -rf {@code entry}, on {@code parent}'s filesystem only (a mount point below it is kept, and so is its directory). */
  private void removeTree(Directory parent, Entry entry) {
    Deque<Level> levels = new ArrayDeque<>();
    try {
      removeOrEnter(parent, entry, levels);
      while (!levels.isEmpty()) {
        Level level = levels.peek();
        if (level.remaining().hasNext()) {
          removeOrEnter(level.directory(), entryOf(level.directory(), level.remaining().next()), levels);
          continue;
        }
        levels.pop();
        if (!leave(level, levels)) {
          continue;
        }
        Directory done = level.directory();
        byte[] path = done.path();
        try {
          kernel.remove(level.parent().fd, done.pathName.name(), true, path);
        } catch (NativeIoException.NotEmptyException e) {
          // a mount point below it was kept, or an entry was made meanwhile
        } catch (NativeIoException e) {
          report(e, path);
        }
      }
    } finally {
      closeAll(levels, null);
    }
  }

  /** Removes {@code entry} of {@code parent}, or, a directory on its filesystem, pushes it to be emptied first. */
  private void removeOrEnter(Directory parent, Entry entry, Deque<Level> levels) {
    try {
      FileStat stat = kernel.stat(parent.fd, entry.name(), entry.path());
      if (!stat.isDirectory()) {
        kernel.remove(parent.fd, entry.name(), false, entry.path());
        return;
      }
      Directory directory = enter(parent, entry);
      if (directory != null) {
        levels.push(new Level(directory, listing(directory), parent));
        entered(parent, levels.size() - 1);
      }
    } catch (NativeIoException e) {
      report(e, entry.path());
    }
  }

  /** Closes the directories {@code levels} holds open, but {@code top}, which its opener closes. */
  private void closeAll(Deque<Level> levels, Directory top) {
    while (!levels.isEmpty()) {
      Directory directory = levels.pop().directory();
      if (directory != top && directory.fd >= 0) {
        kernel.close(directory.fd);
      }
    }
  }

  /**
   * Gives each entry of {@code top} (itself included) on its filesystem whose label is missing or
   * of an {@code unlabelled} type the label of {@code reference} (followed, as chcon --reference
   * reads it); with {@code removeSockets}, such sockets and FIFOs below {@code top} are removed.
   */
  private void relabelUnlabelled(String top, String reference, Set<String> unlabelled, boolean removeSockets) {
    Directory directory = openTop(top);
    if (directory == null) {
      return;
    }
    try {
      byte[] label = referenceLabel(reference);
      Fixer fixer = new Fixer(unlabelled, label, removeSockets);
      fixer.fix(directory.fd, Kernel.self(), directory.path(), false);
      fixer.walk(directory);
    } finally {
      kernel.close(directory.fd);
    }
  }

  /** The label relabelUnlabelled gives, and the walk that gives it. */
  private final class Fixer {
    private final Set<String> unlabelled;
    private final byte[] label;
    private final boolean removeSockets;

    Fixer(Set<String> unlabelled, byte[] label, boolean removeSockets) {
      this.unlabelled = unlabelled;
      this.label = label;
      this.removeSockets = removeSockets;
    }

    /** Every entry below {@code top}, each directory's entries right after it. */
    void walk(Directory top) {
      Deque<Level> levels = new ArrayDeque<>();
      levels.push(new Level(top, listing(top), null));
      try {
        while (!levels.isEmpty()) {
          Level level = levels.peek();
          if (!level.remaining().hasNext()) {
            levels.pop();
            if (level.directory() != top) {
              leave(level, levels);
            }
            continue;
          }
          Directory parent = level.directory();
          Entry entry = entryOf(parent, level.remaining().next());
          try {
            FileStat stat = kernel.stat(parent.fd, entry.name(), entry.path());
            int format = stat.fileFormat();
            fix(parent.fd, entry.name(), entry.path(), format == 0140000 || format == 0010000);
            if (stat.isDirectory()) {
              Directory child = enter(parent, entry);
              if (child != null) {
                levels.push(new Level(child, listing(child), parent));
                entered(parent, levels.size() - 2);
              }
            }
          } catch (NativeIoException e) {
            report(e, entry.path());
          }
        }
      } finally {
        closeAll(levels, top);
      }
    }

    /** One entry: labelled with {@link #label} when unlabelled, or removed when an unlabelled socket or FIFO. */
    void fix(int dirfd, byte[] name, byte[] path, boolean socketOrFifo) {
      try {
        byte[] current = kernel.getLabel(dirfd, name, path);
        if (current != null && !unlabelled.contains(typeOf(current))) {
          return;
        }
        if (removeSockets && socketOrFifo) {
          kernel.remove(dirfd, name, false, path);
        } else if (label != null) {
          kernel.setLabel(dirfd, name, label, path);
        }
      } catch (NativeIoException e) {
        report(e, path);
      }
    }
  }

  /** The type of an initial context, as the running policy shows it; {@code fallback} (refpolicy's) without one. */
  private String initialType(String name, String fallback) {
    try {
      String context = Files.readString(host.selinuxfs().node("initial_contexts/" + name), StandardCharsets.ISO_8859_1);
      String[] fields = context.replace("\0", "").strip().split(":");
      return fields.length >= 3 ? fields[2] : fallback;
    } catch (IOException e) {
      return fallback;
    }
  }

  /** {@code reference}'s label as stored (a trailing NUL kept, so it is copied as it is), symlinks followed; null without one. */
  private byte[] referenceLabel(String reference) {
    byte[] path = bytes(host.real(reference));
    try {
      byte[] real = kernel.realPath(path);
      return kernel.getLabel(Kernel.AT_FDCWD, Kernel.nul(real), path);
    } catch (NativeIoException e) {
      report(e, path);
      return null;
    }
  }

  /** Tells {@link #problems} why {@code path} could not be handled, unless it vanished meanwhile. */
  private void report(NativeIoException e, byte[] path) {
    if (!(e instanceof NativeIoException.NoSuchEntryException)) {
      problems.accept(PathBytes.text(path) + ": " + e.reason());
    }
  }

  private static String typeOf(byte[] label) {
    String[] fields = new String(label, StandardCharsets.ISO_8859_1).replace("\0", "").split(":");
    return fields.length >= 3 ? fields[2] : "";
  }

  private static byte[] bytes(String text) {
    return text.getBytes(PathBytes.charset());
  }
}
