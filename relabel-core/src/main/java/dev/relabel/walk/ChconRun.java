package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.context.ContextEdit;
import dev.relabel.nativeio.Errno;
import dev.relabel.nativeio.NativeIoException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The state of one {@link ContextChanger} run, shared by its tasks: the options, per-worker
 * counters (merged once at the end), the cancel flag; and the one decision every entry gets,
 * {@link #change}.
 */
final class ChconRun extends CountedRun<ChconRun.Counters> {
  /** One worker's counts; only its own thread writes them. */
  static final class Counters {
    long visited;
    int sinceTick;
    long relabeled;
    final List<RelabelReport.Failure> failures = new ArrayList<>();
  }

  final ChconOptions options;
  final FileTree tree;
  final ChconListener listener;
  private final ContextEdit edit;
  /** With a whole context: the value chcon's setfilecon stores, the context and its NUL, one byte per char. */
  private final byte[] wholeStored;

  /** Under -R --preserve-root, the system root's status (a directory met with its device and inode is "/"); else null. */
  private final FileTree.Status systemRoot;

  ChconRun(ChconOptions options, FileTree tree, ChconListener listener, FileTree.Status systemRoot) {
    this.options = options;
    this.systemRoot = systemRoot;
    this.tree = tree;
    this.listener = listener;
    this.edit = options.edit();
    this.wholeStored = edit.wholeContext()
        .map(context -> Arrays.copyOf(context.getBytes(StandardCharsets.ISO_8859_1), context.length() + 1))
        .orElse(null);
  }

  /**
   * Whether -R --preserve-root holds and {@code status}, a directory's, is the system root's
   * (chcon's ROOT_DEV_INO_CHECK).
   */
  boolean isSystemRoot(FileTree.Status status) {
    return systemRoot != null && systemRoot.device() == status.device()
        && systemRoot.inode() == status.inode();
  }

  @Override
  Counters emptyCounters() {
    return new Counters();
  }



  /**
   * Labels {@code name} in {@code directory} (the directory itself when empty) as chcon does,
   * writing only a label that differs from the one stored: with a whole context, unless the
   * stored value is that context with its NUL, as chcon (which writes regardless) leaves it; with
   * field edits, unless the result equals the label as text, as chcon decides.
   */
  void change(FileTree.Directory directory, byte[] name, byte[] path, byte[] accessName) {
    Counters c = counters();
    c.visited++;
    if (++c.sinceTick == Walk.TICK) {
      c.sinceTick = 0;
      listener.progress(Walk.TICK);
    }
    if (options.announceEach()) {
      listener.announced(path);
    }
    byte[] stored;
    try {
      stored = directory.storedLabel(name, path);
    } catch (IOException e) {
      if (wholeStored == null) {
        problem(ChconProblem.Kind.GET_FAILED, path, accessName, errno(e), null, null);
        return;
      }
      // chcon does not read the label it replaces whole: it tries to write, and says that failed.
      stored = null;
    }
    String current = stored == null ? null : cString(stored);
    String context;
    if (wholeStored != null) {
      if (stored != null && Arrays.equals(stored, wholeStored)) {
        return;
      }
      context = edit.wholeContext().orElseThrow();
    } else {
      if (stored != null && stored.length == 0) {
        // libselinux's getfilecon turns an empty value into ENOTSUP.
        problem(ChconProblem.Kind.GET_FAILED, path, accessName, Errno.ENOTSUP, null, null);
        return;
      }
      ContextEdit.Outcome outcome = edit.apply(current);
      if (outcome instanceof ContextEdit.Unlabeled) {
        problem(ChconProblem.Kind.UNLABELED, path, accessName, 0, null, null);
        return;
      } else if (outcome instanceof ContextEdit.Malformed malformed) {
        problem(ChconProblem.Kind.MALFORMED, path, accessName, Errno.EINVAL, null, malformed.current());
        return;
      } else if (outcome instanceof ContextEdit.BadFields bad) {
        for (ContextEdit.BadField field : bad.fields()) {
          problem(ChconProblem.Kind.BAD_FIELD, path, accessName, Errno.EINVAL, field.field().word(), field.value());
        }
        return;
      }
      context = ((ContextEdit.Result) outcome).context();
      if (context.equals(current)) {
        return;
      }
    }
    try {
      directory.setLabel(name, context.getBytes(StandardCharsets.ISO_8859_1), path);
    } catch (IOException e) {
      problem(ChconProblem.Kind.SET_FAILED, path, accessName, errno(e), null, context);
      return;
    }
    c.relabeled++;
    listener.changed(new RelabelReport.Change(path, current, context, true));
  }

  void problem(ChconProblem.Kind kind, byte[] path, byte[] accessName, int errno, String field, String value) {
    ChconProblem problem = new ChconProblem(kind, path, accessName, errno, field, value);
    counters().failures.add(problem.failure());
    listener.failed(problem);
  }

  static int errno(IOException e) {
    return e instanceof NativeIoException n ? n.errno() : Errno.EIO;
  }

  /** The text up to the first NUL, one char per byte, as libselinux reads a label. */
  private static String cString(byte[] stored) {
    int end = 0;
    while (end < stored.length && stored[end] != 0) {
      end++;
    }
    return new String(stored, 0, end, StandardCharsets.ISO_8859_1);
  }

  /**
   * {@code directory/name}, as fts joins them: a directory given with a trailing '/' gets no
   * second one ("d/" and "f" make "d/f", "/" and "f" make "/f").
   */
  static byte[] join(byte[] directory, byte[] name) {
    boolean slash = directory.length > 0 && directory[directory.length - 1] == '/';
    byte[] path = new byte[directory.length + (slash ? 0 : 1) + name.length];
    System.arraycopy(directory, 0, path, 0, directory.length);
    int at = directory.length;
    if (!slash) {
      path[at++] = '/';
    }
    System.arraycopy(name, 0, path, at, name.length);
    return path;
  }

  /** The report; call only after every task has finished. */
  RelabelReport report(Duration elapsed) {
    long visited = 0;
    long relabeled = 0;
    List<RelabelReport.Failure> failures = new ArrayList<>();
    for (Counters c : allCounters()) {
      visited += c.visited;
      relabeled += c.relabeled;
      failures.addAll(c.failures);
    }
    failures.sort((a, b) -> Arrays.compareUnsigned(a.path(), b.path()));
    return new RelabelReport(visited, relabeled, 0, failures, cancelled(), elapsed, List.of());
  }
}
