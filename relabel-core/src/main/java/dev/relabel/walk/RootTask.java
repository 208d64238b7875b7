package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import dev.relabel.match.DirectoryMatch;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.FileType;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.CountedCompleter;

/**
 * Starts the walk of one root: labels the root entry itself, then, for a directory when
 * recursing, hands it to a {@link DirectoryTask} in the pool. The root's parent directories are
 * resolved as the caller named them; everything below the root is reached without following
 * symlinks.
 *
 * <p>{@link Relabeler#run} computes it on its own thread: a root that is a file (setfiles and
 * restorecon with a long {@code -f} list) is then labelled without waking a worker and waiting
 * for it, which cost more than the labelling.
 */
final class RootTask extends CountedCompleter<Void> {
  private static final long serialVersionUID = 1L;

  private final transient Walk walk;
  /** Whose workers walk what lies beneath the root. */
  private final transient Relabeler relabeler;
  private final byte[] path;

  RootTask(Walk walk, Relabeler relabeler, byte[] path) {
    this.walk = walk;
    this.relabeler = relabeler;
    this.path = path;
  }

  @Override
  public void compute() {
    try {
      start();
    } finally {
      tryComplete();
    }
  }

  private void start() {
    boolean isRoot = path.length == 1 && path[0] == '/';
    FileTree.Directory parent = null;
    FileTree.Directory directory = null;
    try {
      byte[] name;
      if (isRoot) {
        directory = walk.tree.open(path);
        parent = directory;
        name = new byte[0];
      } else {
        int slash = lastSlash(path);
        byte[] parentPath = slash == 0 ? new byte[] {'/'} : Arrays.copyOf(path, slash);
        name = Arrays.copyOfRange(path, slash + 1, path.length);
        parent = walk.tree.openForLookup(parentPath);
      }
      FileTree.Status status = parent.status(name, path);
      boolean descend = status.type() == FileType.DIRECTORY && walk.options.recurse();
      long filesystemType = 0;
      if (descend) {
        // As selinux_restorecon, which statfs's a root it walks (for its filesystem's type) between
        // its lstat and fts's: the lookup mounts what an automount point there stands for (autofs's
        // /home/USER, systemd's /boot/efi), and the root then labelled and walked is the mounted
        // filesystem's. A status alone mounts nothing: without this, an autofs directory's label.
        filesystemType = walk.tree.filesystemTypeAt(path);
        status = parent.status(name, path);
      }
      // As selinux_restorecon: with recursion the root is checked as fts meets it, so only a
      // directory can be excluded; without, any root is. Both by prefix (check_excluded).
      if ((status.type() == FileType.DIRECTORY || !walk.options.recurse()) && walk.isExcludedRoot(path)) {
        return;
      }
      String key = walk.key(path);
      if (key == null) {
        walk.fail(path, 0, "not located in the alternate root "
            + PathBytes.text(PathBytes.fromLatin1(walk.options.alternateRoot().orElseThrow())));
        return;
      }
      if (descend && walk.options.digests() != DirectoryDigests.OFF) {
        // libselinux decides by the root's filesystem alone, then checks the root as any directory.
        walk.beginDigests(filesystemType);
        if (walk.digestsActive() && walk.skipUnchanged(parent, name, path, status)) {
          return;
        }
      }
      if (descend) {
        walk.findMounts(path);
      }
      try {
        walk.label(parent, new FileTree.Entry(name, status.type()), path, status.type(), status,
            walk.matcher.lookup(key, status.type()));
      } catch (NativeIoException.NoSuchEntryException e) {
        throw e;
      } catch (IOException e) {
        // As DirectoryTask: a root whose own label cannot be read or set (a read-only mount, a
        // filesystem without xattrs) is reported, and what lies beneath it is still tried.
        walk.fail(path, e);
      }
      if (!descend || walk.cancelled() || !walk.descends(path)) {
        return;
      }
      if (directory == null) {
        directory = parent.openChild(name, path);
      }
      DirectoryMatch match = walk.matcher.directory(key);
      addToPendingCount(1);
      FileTree.Directory handOver = directory;
      directory = null;
      if (handOver == parent) {
        parent = null;
      }
      relabeler.workers().execute(new DirectoryTask(this, walk, null, handOver, name, path, Ancestry.root(status), match,
          status.device()));
    } catch (NativeIoException.NoSuchEntryException e) {
      if (!walk.options.ignoreMissing()) {
        walk.fail(path, e);
      }
    } catch (IOException e) {
      walk.fail(path, e);
    } finally {
      if (parent != null) {
        parent.close();
      }
      if (directory != null) {
        directory.close();
      }
    }
  }

  private static int lastSlash(byte[] path) {
    for (int i = path.length - 1; i >= 0; i--) {
      if (path[i] == '/') {
        return i;
      }
    }
    return -1;
  }
}
