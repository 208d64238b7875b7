package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import dev.relabel.report.RelabelReport;
import dev.relabel.nativeio.Errno;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.FileType;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * chcon on the engine: gives files, and with {@link ChconOptions#recurse} everything beneath them,
 * one context or field edits of their own ({@link dev.relabel.context.ContextEdit}), in parallel
 * (one task per directory on a work-stealing pool), writing {@code security.selinux} only where
 * the label differs, so a repeated run writes nothing and moves no ctime.
 *
 * <p>As {@link Relabeler}: a root's parent directories are resolved as the caller named them;
 * beneath a root every entry is reached through its directory's descriptor and no symlink is
 * followed, so nothing outside the tree is touched. Failures (EPERM, EROFS, ENOTSUP, an entry
 * that vanished) are reported with their path and counted, and the walk goes on. Interrupting the
 * calling thread stops every worker within one entry; the report then says {@code cancelled}.
 * {@link #run} may be called any number of times on the same pool.
 */
public final class ContextChanger implements AutoCloseable {
  private static final byte[] SELF = new byte[0];

  private final ChconOptions options;
  private final FileTree tree;
  private final ChconListener listener;
  private final ForkJoinPool pool;

  public ContextChanger(ChconOptions options, FileTree tree, ChconListener listener) {
    this.options = options;
    this.tree = tree;
    this.listener = listener;
    this.pool = new ForkJoinPool(options.workerCount(), WalkWorker.FACTORY, null, false);
  }

  /** A changer on the real filesystem. */
  public static ContextChanger onDisk(ChconOptions options, ChconListener listener) {
    return new ContextChanger(options, new NativeFileTree(), listener);
  }

  public ChconOptions options() {
    return options;
  }

  /** Changes each file given, one after the other; each path is reported as written here. */
  public RelabelReport run(List<Path> files) {
    List<byte[]> raw = new ArrayList<>(files.size());
    for (Path file : files) {
      raw.add(PathBytes.of(file));
    }
    return runRaw(raw);
  }

  /**
   * As {@link #run}, with each FILE as the bytes a command line gave: reported as given (a
   * trailing slash kept, as chcon shows it), entries beneath it joined to it with '/'.
   */
  public RelabelReport runRaw(List<byte[]> files) {
    long start = System.nanoTime();
    FileTree.Status systemRoot = null;
    IOException rootUnreadable = null;
    if (options.recurse() && options.preserveRoot()) {
      try {
        systemRoot = systemRoot();
      } catch (IOException e) {
        rootUnreadable = e;
      }
    }
    ChconRun run = new ChconRun(options, tree, listener, systemRoot);
    if (rootUnreadable != null) {
      // Without "/"'s device and inode no FILE can be told apart from it: chcon stops before any.
      byte[] slash = {'/'};
      run.problem(ChconProblem.Kind.ROOT_UNREADABLE, slash, slash, ChconRun.errno(rootUnreadable), null, null);
      return run.report(Duration.ofNanos(System.nanoTime() - start));
    }
    boolean interrupted = false;
    for (byte[] file : files) {
      if (run.cancelled()) {
        break;
      }
      ChconTask task = startRoot(run, file);
      if (task == null) {
        continue;
      }
      try {
        pool.submit(task).get();
        run.throwIfStopped();
      } catch (InterruptedException e) {
        interrupted = true;
        run.cancel();
        task.quietlyJoin();
        break;
      } catch (ExecutionException | RuntimeException | Error e) {
        run.cancel();
        run.problem(ChconProblem.Kind.INTERNAL_ERROR, file, file, 0, null,
            String.valueOf(e instanceof ExecutionException x ? x.getCause() : e));
        pool.awaitQuiescence(1, TimeUnit.MINUTES);
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return run.report(Duration.ofNanos(System.nanoTime() - start));
  }

  /**
   * The context of {@code file}, a symlink followed, as chcon's {@code --reference} reads it
   * ({@code getfilecon}): its label up to the first NUL, one char per byte.
   *
   * @throws ReferenceException when it cannot be read: ENODATA when it has no label, ENOTSUP
   *     for an empty one (as libselinux says), else the errno of the failure
   */
  public static String referenceContext(byte[] file) throws ReferenceException {
    byte[] target;
    try {
      target = Kernel.linux().realPath(file);
    } catch (NativeIoException e) {
      throw new ReferenceException(e.errno());
    }
    byte[] stored;
    try {
      Located located = locate(new NativeFileTree(), target);
      try {
        stored = located.owner().storedLabel(located.name(), target);
      } finally {
        located.owner().close();
      }
    } catch (IOException e) {
      throw new ReferenceException(ChconRun.errno(e));
    }
    if (stored == null) {
      throw new ReferenceException(Errno.ENODATA);
    }
    if (stored.length == 0) {
      throw new ReferenceException(Errno.ENOTSUP);
    }
    int end = 0;
    while (end < stored.length && stored[end] != 0) {
      end++;
    }
    return new String(stored, 0, end, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** A reference file's label could not be read. */
  public static final class ReferenceException extends IOException {
    private static final long serialVersionUID = 1L;
    private final int errno;

    ReferenceException(int errno) {
      super("cannot read the reference label: " + Errno.describe(errno));
      this.errno = errno;
    }

    public int errno() {
      return errno;
    }
  }

  /** Where a root lies: the directory holding it, and its name there (empty: the directory itself). */
  private record Located(FileTree.Directory owner, byte[] name) {}

  /**
   * Handles the root {@code given} on this thread: labels it, or for a directory to recurse
   * into returns the task for the pool (which then owns the directory's descriptor).
   */
  private ChconTask startRoot(ChconRun run, byte[] given) {
    byte[] shown = fts(given);
    if (given.length == 0) {
      // Path.of("") would be the working directory; chcon (fts) says the empty name is no file.
      run.problem(ChconProblem.Kind.CANNOT_ACCESS, shown, shown, Errno.ENOENT, null, null);
      return null;
    }
    boolean trailingSlash = given.length > 1 && given[given.length - 1] == '/';
    Located located = null;
    FileTree.Directory handOver = null;
    try {
      located = locate(tree, strip(shown));
      FileTree.Status status = located.owner().status(located.name(), shown);
      boolean follow = (!options.recurse() && options.dereference()) || trailingSlash;
      if (status.type() == FileType.SYMLINK && follow) {
        byte[] target;
        try {
          target = Kernel.linux().realPath(strip(shown));
        } catch (NativeIoException e) {
          if (trailingSlash) {
            // "link/" names what the link points to: a dangling one is no file, as lstat says.
            run.problem(ChconProblem.Kind.CANNOT_ACCESS, shown, shown, e.errno(), null, null);
            return null;
          }
          if (options.announceEach()) {
            listener.announced(shown);
          }
          run.problem(options.edit().isWhole() ? ChconProblem.Kind.SET_FAILED : ChconProblem.Kind.GET_FAILED, shown,
              shown, e.errno(), null, options.edit().wholeContext().orElse(null));
          return null;
        }
        located.owner().close();
        located = null;
        located = locate(tree, target);
        status = located.owner().status(located.name(), shown);
      }
      if (trailingSlash && status.type() != FileType.DIRECTORY) {
        // "file/" fails lstat with ENOTDIR; chcon changes nothing.
        run.problem(ChconProblem.Kind.CANNOT_ACCESS, shown, shown, Errno.ENOTDIR, null, null);
        return null;
      }
      boolean descend = options.recurse() && status.type() == FileType.DIRECTORY;
      if (descend && run.isSystemRoot(status)) {
        run.problem(ChconProblem.Kind.DANGEROUS_ROOT, shown, shown, 0, null, null);
        return null;
      }
      if (!descend) {
        run.change(located.owner(), located.name(), shown, shown);
        return null;
      }
      handOver = located.name().length == 0 ? located.owner() : located.owner().openChild(located.name(), shown);
      if (handOver == located.owner()) {
        located = null;
      }
      ChconTask task = new ChconTask(null, run, null, handOver, shown, shown, Ancestry.root(status));
      handOver = null;
      return task;
    } catch (NativeIoException.NoSuchEntryException | NativeIoException.NotFollowedException e) {
      run.problem(ChconProblem.Kind.CANNOT_ACCESS, shown, shown, e.errno(), null, null);
      return null;
    } catch (IOException e) {
      run.problem(located == null ? ChconProblem.Kind.CANNOT_ACCESS : ChconProblem.Kind.CANNOT_READ_DIRECTORY,
          shown, shown, ChconRun.errno(e), null, null);
      return null;
    } finally {
      if (located != null) {
        located.owner().close();
      }
      if (handOver != null) {
        handOver.close();
      }
    }
  }

  /** Opens the directory holding {@code path} (no trailing slash), or for "/", "." and ".." the directory itself. */
  private static Located locate(FileTree tree, byte[] path) throws IOException {
    int slash = lastSlash(path);
    byte[] name = Arrays.copyOfRange(path, slash + 1, path.length);
    if (path.length == 1 && path[0] == '/' || isDots(name)) {
      return new Located(tree.open(path), SELF);
    }
    byte[] parent = slash < 0 ? new byte[] {'.'} : slash == 0 ? new byte[] {'/'} : Arrays.copyOf(path, slash);
    return new Located(tree.openForLookup(parent), name);
  }

  private FileTree.Status systemRoot() throws IOException {
    try (FileTree.Directory root = tree.open(new byte[] {'/'})) {
      return root.status(SELF, new byte[] {'/'});
    }
  }

  /** The name fts_open shows for a FILE: two or more trailing slashes cut to one. */
  private static byte[] fts(byte[] given) {
    int length = given.length;
    if (length > 2 && given[length - 1] == '/') {
      while (length > 1 && given[length - 2] == '/') {
        length--;
      }
    }
    return Arrays.copyOf(given, length);
  }

  /** Without trailing slashes ("/" stays "/"). */
  private static byte[] strip(byte[] path) {
    int length = path.length;
    while (length > 1 && path[length - 1] == '/') {
      length--;
    }
    return Arrays.copyOf(path, length);
  }

  private static boolean isDots(byte[] name) {
    return name.length == 1 && name[0] == '.' || name.length == 2 && name[0] == '.' && name[1] == '.';
  }

  private static int lastSlash(byte[] path) {
    for (int i = path.length - 1; i >= 0; i--) {
      if (path[i] == '/') {
        return i;
      }
    }
    return -1;
  }

  /** Stops the worker threads once they are idle. */
  @Override
  public void close() {
    pool.shutdown();
  }
}
