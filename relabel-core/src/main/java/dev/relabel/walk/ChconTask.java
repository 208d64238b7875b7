package dev.relabel.walk;

import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.FileType;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountedCompleter;

/**
 * chcon {@code -R} in one directory: labels its entries, forks a task for each subdirectory (each
 * opened from this one's descriptor without following a symlink), and labels the directory itself
 * once its entries are listed (chcon labels a directory when fts leaves it, and not at all when it
 * cannot be read). Symlinks are labelled themselves, never followed.
 */
final class ChconTask extends CountedCompleter<Void> {
  private static final long serialVersionUID = 1L;
  private static final byte[] SELF = new byte[0];

  private final transient ChconRun run;
  /** The parent to open this directory from, or null when {@link #opened} is given. */
  private final transient SharedDirectory parent;
  private transient FileTree.Directory opened;
  /** The name to open it by, and how chcon's label messages name it. */
  private final byte[] name;
  private final byte[] path;

  ChconTask(CountedCompleter<?> completer, ChconRun run, SharedDirectory parent, FileTree.Directory opened,
      byte[] name, byte[] path) {
    super(completer);
    this.run = run;
    this.parent = parent;
    this.opened = opened;
    this.name = name;
    this.path = path;
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
    opened = null;
    if (directory == null) {
      try {
        if (run.cancelled()) {
          return;
        }
        directory = parent.directory().openChild(name, path);
      } catch (NativeIoException.NoSuchEntryException e) {
        run.problem(ChconProblem.Kind.CANNOT_ACCESS, path, name, e.errno(), null, null);
        return;
      } catch (IOException e) {
        run.problem(ChconProblem.Kind.CANNOT_READ_DIRECTORY, path, name, ChconRun.errno(e), null, null);
        return;
      } finally {
        parent.release();
      }
    }
    SharedDirectory self = new SharedDirectory(directory);
    try {
      List<FileTree.Entry> entries;
      try {
        entries = directory.entries();
      } catch (IOException e) {
        run.problem(ChconProblem.Kind.CANNOT_READ_DIRECTORY, path, name, ChconRun.errno(e), null, null);
        return;
      }
      for (FileTree.Entry entry : entries) {
        if (run.cancelled()) {
          return;
        }
        visitEntry(directory, self, entry);
      }
      run.change(directory, SELF, path, name);
    } finally {
      self.release();
    }
  }

  private void visitEntry(FileTree.Directory directory, SharedDirectory self, FileTree.Entry entry) {
    byte[] childPath = ChconRun.join(path, entry.name());
    try {
      FileType type = entry.type();
      if (entry.typeUnknown()) {
        type = directory.status(entry.name(), childPath).type();
      }
      if (type == FileType.DIRECTORY) {
        self.retain();
        addToPendingCount(1);
        new ChconTask(this, run, self, null, entry.name(), childPath).fork();
      } else {
        run.change(directory, entry.name(), childPath, entry.name());
      }
    } catch (IOException e) {
      run.problem(ChconProblem.Kind.CANNOT_ACCESS, childPath, entry.name(), ChconRun.errno(e), null, null);
    } catch (RuntimeException e) {
      // A bug, not the filesystem: still this entry's failure, and the walk goes on.
      run.problem(ChconProblem.Kind.SET_FAILED, childPath, entry.name(), 0, null, "internal error: " + e);
    }
  }
}
