package dev.relabel.walk;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One directory of a fork-join walk, the part every walk shares: open it from its parent's
 * descriptor (never following a symlink; the root's task is handed its directory open), list it,
 * hand each entry to {@link #visitEntry}, which forks a task for each subdirectory it descends
 * ({@link #forkChild}), and close the directory once its last child has opened what it needs
 * ({@link SharedDirectory}). Tasks complete through their completer chain and never join, so the
 * walk's depth never becomes stack depth, and idle workers steal pending subdirectories. A large
 * directory's entries are split into ranges of {@link #ENTRIES_PER_TASK}, each a task of its own
 * ({@link EntryRange}), so that idle workers steal part of it too: one directory can hold a good
 * share of a tree (/usr/share/man/man1: 17,876 of a 143k-entry /usr + /etc; a maildir, a container
 * layer), and walked by one worker it becomes the walk's tail when it comes late, the others having
 * nothing left (a tree of one 60,000-entry directory: the -T 2 walk 0.43 s whole, 0.28 s in
 * ranges). On one worker (-T 1) the walk keeps fts's order instead ({@link #inOrder}), so that
 * its -v lines come as the reference tools print them. What a walk does with entries,
 * and how it reports what fails, is its subclass's: {@link DirectoryTask} (relabel),
 * {@link ChconTask} (chcon -R).
 */
abstract class TreeTask extends CountedCompleter<Void> {
  private static final long serialVersionUID = 1L;

  /**
   * The most entries one task visits: a directory with more is split into ranges of this many. Per
   * range, a task and its fork (about a microsecond); per entry, a stat and a label read (several).
   */
  static final int ENTRIES_PER_TASK = 256;

  /**
   * How deep a one-worker walk keeps fts's order: it holds a descriptor per level, and a hostile
   * tree far deeper (directories are opened relative to their parent, so depth is not bounded by
   * PATH_MAX) would otherwise run the process out of them.
   */
  static final int ORDERED_DEPTH = 128;

  /** The run this task is part of: its stop flag, and where a worker's Error is kept. */
  private final transient CountedRun<?> run;
  /** The parent to open this directory from, or null when {@link #opened} is given. */
  private final transient SharedDirectory parent;
  private transient FileTree.Directory opened;
  private final boolean tooDeepForOrder;
  /** On one worker: the subdirectory task the entry being visited asked to fork. */
  private transient TreeTask deferredChild;
  /** The name to open it by. */
  protected final byte[] name;
  /**
   * This directory's path; null once its entries are visited ({@link #visitOver}): a task lives
   * until its subtree is done, and a chain thousands deep held every level's path meanwhile.
   */
  protected byte[] path;
  /** This directory and those above it, which a subdirectory met must not be ({@link Ancestry}). */
  protected final transient Ancestry ancestry;

  TreeTask(CountedCompleter<?> completer, CountedRun<?> run, SharedDirectory parent, FileTree.Directory opened,
      byte[] name, byte[] path, Ancestry ancestry) {
    super(completer);
    this.run = run;
    this.parent = parent;
    this.opened = opened;
    this.name = name;
    this.path = path;
    this.ancestry = ancestry;
    this.tooDeepForOrder = deeperThanOrdered(path);
  }

  /**
   * Visits the directory. A task completes through {@link #tryComplete} whatever its visit did, so
   * what a visit throws is handled here: left to ForkJoinTask it was lost (the task had completed
   * normally already), its subtree unwalked and the run's status 0.
   */
  @Override
  public final void compute() {
    byte[] at = path;
    try {
      if (!visit()) {
        visitOver();
      }
    } catch (RuntimeException e) {
      internalError(at, e);
    } catch (Error e) {
      stopFor(e);
    } finally {
      tryComplete();
    }
  }

  /** Visits this directory; true when ranges of its entries go on in other tasks ({@link #rangeDone} ends them). */
  private boolean visit() {
    FileTree.Directory directory = opened;
    opened = null;
    if (directory == null) {
      try {
        if (cancelled()) {
          return false;
        }
        directory = openChild(parent.directory());
      } catch (IOException e) {
        cannotOpen(e);
        return false;
      } finally {
        parent.release();
      }
    }
    SharedDirectory self = new SharedDirectory(directory);
    try {
      List<FileTree.Entry> entries;
      try {
        if (!enters(directory)) {
          return false;
        }
        entries = order(directory, readsAhead() ? directory.entriesReadAhead() : directory.entries());
      } catch (IOException e) {
        cannotList(e);
        return false;
      }
      int size = entries.size();
      if (inOrder()) {
        visitInOrder(directory, self, entries, 0, new AtomicInteger(1));
        return true;
      }
      if (size <= ENTRIES_PER_TASK) {
        if (visitRange(directory, self, entries, 0, size)) {
          listed(directory);
        }
        return false;
      }
      // The ranges after the first go to the pool first, where idle workers take them; this task
      // visits the first, and whichever range ends last reports the directory listed.
      AtomicInteger unfinished = new AtomicInteger((size + ENTRIES_PER_TASK - 1) / ENTRIES_PER_TASK);
      for (int from = ENTRIES_PER_TASK; from < size; from += ENTRIES_PER_TASK) {
        self.retain();
        addToPendingCount(1);
        new EntryRange(this, directory, self, entries, from, Math.min(size, from + ENTRIES_PER_TASK), unfinished)
            .fork();
      }
      visitRange(directory, self, entries, 0, ENTRIES_PER_TASK);
      rangeDone(directory, unfinished);
      return true;
    } finally {
      self.release();
    }
  }

  /**
   * Whether this walk runs on one worker, where it visits entries in fts's order: each directory's
   * entries as listed, a subdirectory's whole subtree before the next entry, a directory reported
   * listed after its subtree (so -v lines come as setfiles', restorecon's and chcon's do). Nothing
   * is split into ranges then; one worker takes its own tasks last in, first out, which is what
   * makes forking the rest of a directory before a subdirectory a depth-first walk.
   */
  private boolean inOrder() {
    ForkJoinPool pool = getPool();
    return pool != null && pool.getParallelism() == 1 && !tooDeepForOrder;
  }

  /**
   * Whether this directory lies deeper than {@link #ORDERED_DEPTH} components: in order, each
   * directory on the way down stays open until its subtree is done, so below that the walk goes
   * back to opening a directory's children and closing it (a few descriptors at any depth).
   */
  private static boolean deeperThanOrdered(byte[] path) {
    int slashes = 0;
    for (byte b : path) {
      if (b == '/' && ++slashes > ORDERED_DEPTH) {
        return true;
      }
    }
    return false;
  }

  /**
   * Visits entries from {@code from} on, in order, until one forks a subdirectory: then the rest
   * of the directory is forked first and the subdirectory after it, so that the subdirectory's
   * subtree is walked before the rest ({@link #inOrder}). The last part reports the directory
   * listed.
   */
  private void visitInOrder(FileTree.Directory directory, SharedDirectory self, List<FileTree.Entry> entries,
      int from, AtomicInteger unfinished) {
    for (int i = from; i < entries.size(); i++) {
      if (cancelled()) {
        break;
      }
      visitEntry(directory, self, entries.get(i));
      TreeTask child = deferredChild;
      if (child != null) {
        deferredChild = null;
        // The rest, even when empty: it reports the directory listed after the subtree.
        unfinished.incrementAndGet();
        self.retain();
        addToPendingCount(1);
        new EntryRange(this, directory, self, entries, i + 1, entries.size(), unfinished).fork();
        self.retain();
        addToPendingCount(1);
        child.fork();
        break;
      }
    }
    rangeDone(directory, unfinished);
  }

  /** Visits entries {@code [from, to)}; false when the walk was stopped meanwhile. */
  private boolean visitRange(FileTree.Directory directory, SharedDirectory self, List<FileTree.Entry> entries,
      int from, int to) {
    for (int i = from; i < to; i++) {
      if (cancelled()) {
        return false;
      }
      visitEntry(directory, self, entries.get(i));
    }
    return true;
  }

  /** One range of a split directory is done: the last one reports the directory listed, unless stopped. */
  private void rangeDone(FileTree.Directory directory, AtomicInteger unfinished) {
    if (unfinished.decrementAndGet() == 0) {
      if (!cancelled()) {
        listed(directory);
      }
      visitOver();
    }
  }

  /**
   * Entries {@code [from, to)} of a large directory, visited on whichever worker takes them, with
   * the directory's own task as their completer (its subdirectory tasks are forked from here as from
   * it). Holds the directory open, as a subdirectory task does, until it is done.
   */
  private static final class EntryRange extends CountedCompleter<Void> {
    private static final long serialVersionUID = 1L;

    private final transient TreeTask owner;
    private final transient FileTree.Directory directory;
    private final transient SharedDirectory self;
    private final transient List<FileTree.Entry> entries;
    private final int from;
    private final int to;
    private final transient AtomicInteger unfinished;

    EntryRange(TreeTask owner, FileTree.Directory directory, SharedDirectory self, List<FileTree.Entry> entries,
        int from, int to, AtomicInteger unfinished) {
      super(owner);
      this.owner = owner;
      this.directory = directory;
      this.self = self;
      this.entries = entries;
      this.from = from;
      this.to = to;
      this.unfinished = unfinished;
    }

    @Override
    public void compute() {
      try {
        if (owner.inOrder()) {
          owner.visitInOrder(directory, self, entries, from, unfinished);
        } else {
          owner.visitRange(directory, self, entries, from, to);
          owner.rangeDone(directory, unfinished);
        }
      } catch (RuntimeException e) {
        owner.internalError(owner.path, e);
      } catch (Error e) {
        owner.stopFor(e);
      } finally {
        self.release();
        tryComplete();
      }
    }
  }

  /**
   * Forks {@code child}, the task of a subdirectory of this one, which opens it from {@code self};
   * on one worker, once the entry's visit is over ({@link #visitInOrder}).
   */
  protected final void forkChild(SharedDirectory self, TreeTask child) {
    if (inOrder()) {
      deferredChild = child;
      return;
    }
    self.retain();
    addToPendingCount(1);
    child.fork();
  }

  /** Whether the walk was stopped: no more directory is opened, no more entry visited. */
  private boolean cancelled() {
    return run.cancelled();
  }

  /**
   * A visit ended in an Error (out of memory, most likely): the walk is to stop and its caller to
   * throw it once the tasks are done. Kept without allocating, the task then completing as any:
   * where ForkJoinTask's own record of the exception could not allocate either, the worker thread
   * died with its task never done, and the walk's caller waited forever (a 20,000-level chain in a
   * 64 MiB heap hung setfiles).
   */
  private void stopFor(Error e) {
    run.stopFor(e);
  }

  /** A bug, not the filesystem, ended the visit of the directory {@code at}: its failure; the walk goes on. */
  protected abstract void internalError(byte[] at, RuntimeException e);

  /** This directory could not be opened from its parent. */
  protected abstract void cannotOpen(IOException e);

  /** Opens this directory, the subdirectory {@link #name} of {@code parent}. */
  protected FileTree.Directory openChild(FileTree.Directory parent) throws IOException {
    return parent.openChild(name, path);
  }

  /** Whether to list this directory, now open (relabel's -x checks its filesystem here). */
  protected boolean enters(FileTree.Directory directory) throws IOException {
    return true;
  }

  /** The order to visit a directory's entries in: as listed, unless the walk mimics another. */
  protected List<FileTree.Entry> order(FileTree.Directory directory, List<FileTree.Entry> listed) {
    return listed;
  }

  /** This directory could not be listed (or {@link #enters} failed). */
  protected abstract void cannotList(IOException e);

  /**
   * One entry of this directory; every failure is reported here and the walk goes on. Called from
   * several workers at once for a directory split into ranges.
   */
  protected abstract void visitEntry(FileTree.Directory directory, SharedDirectory self, FileTree.Entry entry);

  /** After every entry of this directory was visited (not when the walk was stopped meanwhile). */
  protected void listed(FileTree.Directory directory) {}

  /**
   * The visit is over (listed, failed or stopped): lets go of what only it needed, so that a
   * directory whose subtree is still walked holds memory of its own size, not its path's.
   */
  protected void visitOver() {
    path = null;
  }

  /** Whether the visits will read the status or label of most entries: the listing may read them ahead. */
  protected boolean readsAhead() {
    return false;
  }
}
