package dev.relabel.walk;

import dev.relabel.nativeio.Errno;
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
final class ChconTask extends TreeTask {
  private static final long serialVersionUID = 1L;
  private static final byte[] SELF = new byte[0];

  private final transient ChconRun run;

  /** {@code name}: the name to open it by, and how chcon's label messages name it. */
  ChconTask(CountedCompleter<?> completer, ChconRun run, SharedDirectory parent, FileTree.Directory opened,
      byte[] name, byte[] path, Ancestry ancestry) {
    super(completer, run, parent, opened, name, path, ancestry);
    this.run = run;
  }

  @Override
  protected void internalError(byte[] at, RuntimeException e) {
    run.problem(ChconProblem.Kind.INTERNAL_ERROR, at, name, 0, null, String.valueOf(e));
  }

  @Override
  protected void cannotOpen(IOException e) {
    run.problem(e instanceof NativeIoException.NoSuchEntryException ? ChconProblem.Kind.CANNOT_ACCESS
        : ChconProblem.Kind.CANNOT_READ_DIRECTORY, path, name, ChconRun.errno(e), null, null);
  }

  @Override
  protected void cannotList(IOException e) {
    run.problem(ChconProblem.Kind.CANNOT_READ_DIRECTORY, path, name, ChconRun.errno(e), null, null);
  }

  /** As chcon's fts reads a directory: large ones in inode order (see {@link FtsOrder}). */
  @Override
  protected List<FileTree.Entry> order(FileTree.Directory directory, List<FileTree.Entry> listed) {
    return FtsOrder.of(listed, () -> directory.filesystemType(path));
  }

  /** chcon labels a directory when fts leaves it, and not at all when it cannot be read. */
  @Override
  protected void listed(FileTree.Directory directory) {
    run.change(directory, SELF, path, name);
  }

  @Override
  protected void visitEntry(FileTree.Directory directory, SharedDirectory self, FileTree.Entry entry) {
    byte[] childPath = ChconRun.join(path, entry.name());
    try {
      FileType type = entry.type();
      FileTree.Status status = null; // stat'd once: each directory, and what the listing did not type
      if (entry.typeUnknown() || type == FileType.DIRECTORY) {
        status = directory.status(entry.name(), childPath);
        type = status.type();
      }
      if (type == FileType.DIRECTORY && ancestry.isCycle(status)) {
        // fts tells the cycle (FTS_DC) before chcon looks whether it is "/".
        run.problem(ChconProblem.Kind.DIRECTORY_CYCLE, childPath, entry.name(), Errno.ELOOP, null, null);
      } else if (type == FileType.DIRECTORY && run.isSystemRoot(status)) {
        // "/" met beneath an operand (a bind mount of it): chcon warns, skips it and fails.
        run.problem(ChconProblem.Kind.DANGEROUS_ROOT, childPath, entry.name(), 0, null, null);
      } else if (type == FileType.DIRECTORY) {
        forkChild(self, new ChconTask(this, run, self, null, entry.name(), childPath, ancestry.child(status)));
      } else {
        run.change(directory, entry.name(), childPath, entry.name());
      }
    } catch (IOException e) {
      run.problem(ChconProblem.Kind.CANNOT_ACCESS, childPath, entry.name(), ChconRun.errno(e), null, null);
    } catch (RuntimeException e) {
      // A bug, not the filesystem: still this entry's failure, and the walk goes on.
      run.problem(ChconProblem.Kind.INTERNAL_ERROR, childPath, entry.name(), 0, null, String.valueOf(e));
    }
  }
}
