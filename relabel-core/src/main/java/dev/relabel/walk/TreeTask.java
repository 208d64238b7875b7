package dev.relabel.walk;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountedCompleter;

/**
 * One directory of a fork-join walk, the part every walk shares: open it from its parent's
 * descriptor (never following a symlink; the root's task is handed its directory open), list it,
 * hand each entry to {@link #visitEntry}, which forks a task for each subdirectory it descends
 * ({@link #forkChild}), and close the directory once its last child has opened what it needs
 * ({@link SharedDirectory}). Tasks complete through their completer chain and never join, so the
 * walk's depth never becomes stack depth, and idle workers steal pending subdirectories. What a
 * walk does with entries, and how it reports what fails, is its subclass's: {@link DirectoryTask}
 * (relabel), {@link ChconTask} (chcon -R).
 */
abstract class TreeTask extends CountedCompleter<Void> {
  private static final long serialVersionUID = 1L;

  /** The parent to open this directory from, or null when {@link #opened} is given. */
  private final transient SharedDirectory parent;
  private transient FileTree.Directory opened;
  /** The name to open it by. */
  protected final byte[] name;
  protected final byte[] path;

  TreeTask(CountedCompleter<?> completer, SharedDirectory parent, FileTree.Directory opened, byte[] name,
      byte[] path) {
    super(completer);
    this.parent = parent;
    this.opened = opened;
    this.name = name;
    this.path = path;
  }

  @Override
  public final void compute() {
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
        if (cancelled()) {
          return;
        }
        directory = parent.directory().openChild(name, path);
      } catch (IOException e) {
        cannotOpen(e);
        return;
      } finally {
        parent.release();
      }
    }
    SharedDirectory self = new SharedDirectory(directory);
    try {
      List<FileTree.Entry> entries;
      try {
        if (!enters(directory)) {
          return;
        }
        entries = directory.entries();
      } catch (IOException e) {
        cannotList(e);
        return;
      }
      for (FileTree.Entry entry : entries) {
        if (cancelled()) {
          return;
        }
        visitEntry(directory, self, entry);
      }
      listed(directory);
    } finally {
      self.release();
    }
  }

  /** Forks {@code child}, the task of a subdirectory of this one, which opens it from {@code self}. */
  protected final void forkChild(SharedDirectory self, TreeTask child) {
    self.retain();
    addToPendingCount(1);
    child.fork();
  }

  /** Whether the walk was stopped: no more directory is opened, no more entry visited. */
  protected abstract boolean cancelled();

  /** This directory could not be opened from its parent. */
  protected abstract void cannotOpen(IOException e);

  /** Whether to list this directory, now open (relabel's -x checks its filesystem here). */
  protected boolean enters(FileTree.Directory directory) throws IOException {
    return true;
  }

  /** This directory could not be listed (or {@link #enters} failed). */
  protected abstract void cannotList(IOException e);

  /** One entry of this directory; every failure is reported here and the walk goes on. */
  protected abstract void visitEntry(FileTree.Directory directory, SharedDirectory self, FileTree.Entry entry);

  /** After every entry of this directory was visited (not when the walk was stopped meanwhile). */
  protected void listed(FileTree.Directory directory) {}
}
