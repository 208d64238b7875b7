package dev.relabel.walk;

import dev.relabel.match.DirectoryMatch;
import dev.relabel.policy.PathBytes;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.FileType;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountedCompleter;

/**
 * Labels the entries of one directory and forks a task for each subdirectory. Tasks complete
 * through their completer chain and never join, so the walk's depth never becomes stack depth,
 * and idle workers steal pending subdirectories.
 */
final class DirectoryTask extends CountedCompleter<Void> {
  private static final long serialVersionUID = 1L;

  private final transient Walk walk;
  /** The parent to open this directory from, or null when {@link #opened} is given. */
  private final transient SharedDirectory parent;
  private transient FileTree.Directory opened;
  private final byte[] name;
  private final byte[] path;
  private final transient DirectoryMatch match;
  /** The filesystem the walk started on, for {@code -x}; -1 when not needed. */
  private final long device;

  DirectoryTask(CountedCompleter<?> completer, Walk walk, SharedDirectory parent, FileTree.Directory opened,
      byte[] name, byte[] path, DirectoryMatch match, long device) {
    super(completer);
    this.walk = walk;
    this.parent = parent;
    this.opened = opened;
    this.name = name;
    this.path = path;
    this.match = match;
    this.device = device;
  }

  @Override
  public void compute() {
    try {
      visit();
    } finally {
      tryComplete();
    }
  }

  private void visit() {
    FileTree.Directory directory = opened;
    if (directory == null) {
      try {
        if (walk.cancelled()) {
          return;
        }
        directory = parent.directory().openChild(name, path);
      } catch (IOException e) {
        walk.fail(path, e);
        return;
      } finally {
        parent.release();
      }
    }
    opened = null;
    SharedDirectory self = new SharedDirectory(directory);
    try {
      if (walk.options.oneFilesystem() && directory.status(new byte[0], path).device() != device) {
        return;
      }
      List<FileTree.Entry> entries = directory.entries();
      for (FileTree.Entry entry : entries) {
        if (walk.cancelled()) {
          return;
        }
        visitEntry(directory, self, entry);
      }
    } catch (IOException e) {
      walk.fail(path, e);
    } finally {
      self.release();
    }
  }

  private void visitEntry(FileTree.Directory directory, SharedDirectory self, FileTree.Entry entry) {
    byte[] childPath = Walk.join(path, entry.name());
    boolean descend = true;
    try {
      FileType type = entry.type();
      FileTree.Status status = null;
      if (entry.typeUnknown()) {
        status = directory.status(entry.name(), childPath);
        type = status.type();
      }
      // selinux_restorecon checks its exclude list for directories only (at FTS_D).
      if (type == FileType.DIRECTORY && walk.isExcluded(childPath)) {
        return;
      }
      // With -x, as selinux_restorecon: an entry on another filesystem (a mount point, or a file
      // bind-mounted) is neither labelled nor descended.
      if (walk.options.oneFilesystem()) {
        if (status == null) {
          status = directory.status(entry.name(), childPath);
        }
        if (status.device() != device) {
          return;
        }
      }
      if (type == FileType.DIRECTORY && walk.digestsActive()) {
        if (status == null) {
          status = directory.status(entry.name(), childPath);
        }
        if (walk.skipUnchanged(directory, entry.name(), childPath, status)) {
          return;
        }
      }
      String childName = PathBytes.latin1(entry.name());
      try {
        walk.label(directory, entry.name(), childPath, type, status, match.lookup(childName, type));
      } catch (IOException e) {
        walk.fail(childPath, e);
        // As selinux_restorecon (fts goes on into the directory whatever its label did): a
        // directory whose label cannot be read or set (EROFS, ENOTSUP, EPERM) is still descended,
        // and each entry below it tried and reported. Only one that is gone is not.
        descend = !(e instanceof NativeIoException.NoSuchEntryException);
      }
      if (type == FileType.DIRECTORY && descend && walk.descends(childPath)) {
        self.retain();
        addToPendingCount(1);
        new DirectoryTask(this, walk, self, null, entry.name(), childPath, match.enter(childName), device).fork();
      }
    } catch (IOException e) {
      walk.fail(childPath, e);
    } catch (RuntimeException e) {
      // A bug, not the filesystem: still this entry's failure, and the walk goes on.
      walk.fail(childPath, 0, "internal error: " + e);
    }
  }
}
