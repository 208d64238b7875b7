package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.LinkConflicts;
import dev.relabel.report.RelabelListener;
import dev.relabel.context.LabelRules;
import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PathBytes;
import dev.relabel.match.PolicyDiff;
import dev.relabel.nativeio.FileStat;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.FileType;
import dev.relabel.policy.Spec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The state of one run, shared by its tasks: read-only configuration, per-worker counters (merged
 * once at the end, so the per-file path touches no shared counter), the cancel flag, and the
 * map of multiply-linked files of the current root (only entries with more than one link, or one
 * that a bind mount inside the root may show under a second name, are ever put there).
 */
final class Walk extends CountedRun<Walk.Counters> {
  /** Entries a worker decides between two progress ticks. */
  static final int TICK = 1024;

  /** One worker's counts; only its own thread writes them. */
  static final class Counters {
    long visited;
    int sinceTick;
    long relabeled;
    long unmatched;
    final List<RelabelReport.Failure> failures = new ArrayList<>();
    /** With {@code -W}: the specs that decided an entry (by identity). */
    final Set<Spec> usedSpecs = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** The current root's directories whose digest is to be stored when the root is done. */
    final List<DigestStore.Pending> digests = new ArrayList<>();
    /**
     * The context an entry's label was last compared with, and its bytes: most entries of a
     * directory get the same one, so a check compares bytes without making any per entry.
     */
    String comparedContext;
    byte[] comparedContextBytes;
  }

  /**
   * A multiply-linked file's identity. Its equals and hashCode are written out: a record's own are
   * linked through method handles at their first call (ObjectMethods spins ~80 classes), which took
   * ~25 ms of the walk's thread when the first hard link was met in a one-shot, C1-only JVM.
   */
  record Inode(long device, long inode) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Inode other && device == other.device && inode == other.inode;
    }

    @Override
    public int hashCode() {
      return 31 * Long.hashCode(device) + Long.hashCode(inode);
    }
  }


  final LabelMatcher matcher;
  final LabelRules rules;
  final RelabelOptions options;
  final FileTree tree;
  final RelabelListener listener;
  private final Exclusions excludes;
  /** The alternate root's path as a one-char-per-byte string, without a trailing '/'; null when none. */
  private final String alternateRoot;
  private final ConcurrentHashMap<Inode, LinkNames> links = new ConcurrentHashMap<>();
  /**
   * The current root's entries that bind mounts inside it may show under a second name, with
   * setfiles' hard link check; almost always none. Set on the caller's thread before the root's
   * first task is handed to the pool (which publishes it to the workers), read for every entry.
   */
  private Set<Inode> boundTwice = Set.of();
  /** The mount table, read for the first root that needs it. */
  private final RootMounts mounts;
  /** Whether only entries changed after {@link #changedAfterNanos} count ({@link RelabelOptions#changedAfter}). */
  private final boolean onlyChanged;
  private final long changedAfterNanos;
  /** Whether the current root keeps directory digests; set before its first directory is walked. */
  private volatile boolean rootDigests;
  /** Whether anything under the current root failed: then no digest of it is stored. */
  private volatile boolean rootFailed;

  /** With {@code -C}: the previous policy; only entries it labels otherwise are handled. Null otherwise. */
  final PolicyDiff diff;

  /**
   * @param excludes the paths not to label or descend into, one char per byte: {@link
   *     #excludes(RelabelOptions)}, read once for all the runs of a relabeler
   */
  Walk(LabelMatcher matcher, PolicyDiff diff, LabelRules rules, RelabelOptions options, FileTree tree,
      RelabelListener listener, Exclusions excludes) {
    this.matcher = matcher;
    this.diff = diff;
    this.rules = rules;
    this.options = options;
    this.tree = tree;
    this.listener = listener;
    this.excludes = excludes;
    this.mounts = new RootMounts(tree);
    String root = options.alternateRoot().orElse(null);
    this.alternateRoot = "/".equals(root) ? "" : root;
    this.onlyChanged = options.changedAfter().isPresent();
    java.time.Instant at = options.changedAfter().orElse(null);
    this.changedAfterNanos = at == null ? 0L
        : FileStat.nanos(at.getEpochSecond(), at.getNano());
  }

  /**
   * The excluded directories ({@code -e}) and, with {@link RelabelOptions#checkSeclabel}, the mounts
   * without {@code seclabel}. libselinux reads the mount table once per process; a relabeler reads
   * it once for all its runs (setfiles {@code -f} is one run per path).
   */
  static Exclusions excludes(RelabelOptions options) {
    Set<String> excluded = new HashSet<>(options.excludes());
    if (options.checkSeclabel()) {
      excluded.addAll(MountTable.mountsWithoutSeclabel());
    }
    return Exclusions.ofLatin1(excluded);
  }

  /**
   * Called by the root's task for a root directory walked recursively, before any entry of it is
   * labelled: with setfiles' hard link check, finds from the mount table what bind mounts inside it
   * may show under a second name ({@link BoundTwice}), to be handled as multiply-linked files are.
   * (Directory cycles the walk finds itself: {@link Ancestry}.)
   */
  void findMounts(byte[] root) {
    if (!options.hardLinkCheck()) {
      return;
    }
    List<MountTable.Mount> table = mounts.table();
    if (!table.isEmpty()) {
      boundTwice = BoundTwice.find(tree, RootMounts.realPath(root), table);
    }
  }

  @Override
  Counters emptyCounters() {
    return new Counters();
  }


  /**
   * Called before each root is walked, while no task runs. Hard link associations last one root:
   * setfiles calls selinux_restorecon once per root, and each call empties its inode table when
   * it ends, so a file reached again from a later root is handled again.
   */
  void beginRoot() {
    links.clear();
    boundTwice = Set.of();
    rootDigests = false;
    rootFailed = false;
    for (Counters c : allCounters()) {
      c.digests.clear();
    }
  }

  /**
   * Called by the root's task, before any directory is walked, for a root directory walked
   * recursively: as libselinux, digests are kept unless asked not to, or on an in-memory
   * filesystem or sysfs, where they would not outlive the boot.
   */
  void beginDigests(long filesystemType) {
    rootDigests = options.digests() != DirectoryDigests.OFF && options.recurse()
        && !DigestStore.isVolatile(filesystemType);
  }

  /**
   * Whether to walk the directory {@code path} at all: always, but with {@code -C} only when some
   * entry beneath it may be labelled otherwise by the two policies.
   */
  boolean descends(byte[] path) {
    if (diff == null) {
      return true;
    }
    String key = key(path);
    return key != null && diff.mayDifferBeneath(key);
  }

  boolean digestsActive() {
    return rootDigests;
  }

  /**
   * The digest check libselinux makes when it meets a directory, before labelling it: true when
   * the directory is to be skipped, itself and everything beneath, because its stored digest
   * equals the policy's ({@code -D}). Otherwise the policy's digest is remembered, to be stored
   * once the root is done.
   *
   * <p>The digest is of the path as it is matched: with {@code -r}, the path below the alternate
   * root. libselinux 3.4 takes the path as walked, alternate root included, which no spec of the
   * tree's own policy decides, so its digests there miss policy changes; these are the digests
   * the tree will need once booted with that root as "/".
   */
  boolean skipUnchanged(FileTree.Directory parent, byte[] name, byte[] path, FileTree.Status status) {
    String key = key(path);
    java.util.Optional<byte[]> wanted = key == null ? java.util.Optional.empty() : matcher.partialMatchDigest(key);
    if (wanted.isEmpty()) {
      return false;
    }
    if (options.reportUnusedSpecs()) {
      counters().usedSpecs.addAll(matcher.digestLookupMatches(key));
    }
    if (options.digests() == DirectoryDigests.SKIP_UNCHANGED) {
      byte[] stored;
      try {
        stored = parent.digest(name, path);
      } catch (IOException e) {
        // Unreadable is as good as absent: the directory is labelled.
        stored = null;
      }
      if (stored != null && java.util.Arrays.equals(stored, wanted.get())) {
        listener.skippedUnchanged(path);
        return true;
      }
    }
    counters().digests.add(new DigestStore.Pending(path, status.device(), status.inode(), wanted.get()));
    return false;
  }

  /**
   * Called after the root's tasks have all finished: stores the digests of its directories, unless
   * this is a dry run or anything under the root failed or the run was cancelled (a directory whose
   * subtree was not wholly labelled must never claim it was).
   */
  void storeDigests(byte[] root) {
    if (!rootDigests || options.dryRun() || rootFailed || cancelled()) {
      return;
    }
    List<DigestStore.Pending> pending = new ArrayList<>();
    for (Counters c : allCounters()) {
      pending.addAll(c.digests);
      c.digests.clear();
    }
    DigestStore.store(tree, root, pending, listener);
  }


  /**
   * Whether the directory {@code path}, met inside a walk, is excluded. Only an exact match is
   * looked for: every ancestor below the root was checked when it was met, and the root's own
   * ancestors by {@link #isExcludedRoot}. As in libselinux, only directories are checked.
   */
  boolean isExcluded(byte[] path) {
    return excludes.containsDirectory(path);
  }

  /**
   * Whether the root {@code path} is excluded, as libselinux's {@code check_excluded} decides: it
   * is an excluded path or lies beneath one.
   */
  boolean isExcludedRoot(byte[] path) {
    return excludes.coversRoot(path);
  }


  /**
   * The key a path is matched as: itself, or with {@code -r} the part below the alternate root
   * ("/" for the root itself); null when the path lies outside the alternate root.
   */
  String key(byte[] path) {
    String text = PathBytes.latin1(path);
    if (alternateRoot == null) {
      return text;
    }
    if (text.equals(alternateRoot) || (alternateRoot.isEmpty() && text.equals("/"))) {
      return "/";
    }
    if (text.startsWith(alternateRoot) && text.charAt(alternateRoot.length()) == '/') {
      return text.substring(alternateRoot.length());
    }
    return null;
  }

  /**
   * Whether {@link #label} reads the label of about every entry the policy gives a context, so that
   * listings may read them ahead: not with a policy update's diff (only the entries it changed are
   * read) nor with fixfiles -B/-N (only those changed since a time).
   */
  boolean readsEveryEntry() {
    return diff == null && !onlyChanged;
  }

  /**
   * Decides and, unless a dry run, writes the label of {@code entry} in {@code directory}.
   *
   * @param status the entry's status when already known, else null
   */
  void label(FileTree.Directory directory, FileTree.Entry entry, byte[] path, FileType type, FileTree.Status status,
      Label label) throws IOException {
    if (onlyChanged) {
      // fixfiles -B/-N: find -newermt lists only entries modified strictly later; the walk still
      // goes through older directories, as find does.
      status = status != null ? status : directory.status(entry, path);
      if (status.modifiedNanos() <= changedAfterNanos) {
        return;
      }
    }
    Counters c = counters();
    c.visited++;
    if (options.reportUnusedSpecs()) {
      label.spec().ifPresent(c.usedSpecs::add);
    }
    if (label.kind() != Label.Kind.CONTEXT) {
      c.unmatched++;
      if (onlyChanged) {
        String key = key(path);
        listener.noDefaultLabel(key == null ? path : PathBytes.fromLatin1(key));
      }
      return;
    }
    // Progress counts what setfiles -p counts: the entries the policy gives a context.
    if (++c.sinceTick == TICK) {
      c.sinceTick = 0;
      listener.progress(TICK);
    }
    if (diff != null) {
      String key = key(path);
      if (key == null || diff.previous().lookup(key, type).sameOutcome(label)) {
        // The update changed nothing for this entry: it is neither read nor written.
        return;
      }
    }
    // The context itself, without an Optional per entry (C1 does not eliminate it).
    String specified = label.display();
    boolean checksLinks = type != FileType.DIRECTORY && (options.hardLinkCheck() || options.skipMultiLinked());
    if (checksLinks || !boundTwice.isEmpty()) {
      FileTree.Status known = status != null ? status : directory.status(entry, path);
      boolean multiLinked = checksLinks && known.links() > 1;
      if (multiLinked && options.skipMultiLinked()) {
        return;
      }
      // A bind mount inside the root may show an entry, a directory too, under a second name.
      if (multiLinked || (!boundTwice.isEmpty() && boundTwice.contains(new Inode(known.device(), known.inode())))) {
        // Decided once every name of the inode is known (see labelMultiLinked).
        links.computeIfAbsent(new Inode(known.device(), known.inode()), k -> new LinkNames()).add(path, specified);
        return;
      }
    }
    apply(directory, entry, path, specified, c);
  }

  /** Reads the entry's label, and writes the one the rules decide for {@code specified}. */
  private void apply(FileTree.Directory directory, FileTree.Entry entry, byte[] path, String specified, Counters c)
      throws IOException {
    if (options.logMatches()) {
      listener.matched(path, specified);
    }
    byte[] currentBytes = directory.label(entry, path);
    if (currentBytes != null && isContext(currentBytes, specified, c)) {
      // What the rules decide for a label that already is the spec's context, whatever the
      // options: keep it. Checked on the bytes, so that a check makes no String per entry.
      return;
    }
    String current = currentBytes == null ? null : new String(currentBytes, StandardCharsets.ISO_8859_1);
    LabelRules.Decision decision = rules.decide(current, specified);
    if (decision instanceof LabelRules.Relabel set) {
      if (!options.dryRun()) {
        directory.setLabel(entry.name(), set.context().getBytes(StandardCharsets.ISO_8859_1), path);
      }
      c.relabeled++;
      listener.changed(new RelabelReport.Change(path, current, set.context(), !options.dryRun()));
    } else if (decision instanceof LabelRules.KeepCustomized kept) {
      listener.keptCustomized(path, kept.current());
    } else if (decision instanceof LabelRules.Malformed malformed) {
      fail(path, 0, "current label '" + malformed.current() + "' is not a context");
    }
  }

  /** Whether {@code label} is {@code context}, one char per byte. */
  private static boolean isContext(byte[] label, String context, Counters c) {
    if (label.length != context.length()) {
      return false;
    }
    if (c.comparedContext != context) {
      c.comparedContextBytes = context.getBytes(StandardCharsets.ISO_8859_1);
      c.comparedContext = context;
    }
    // Compared eight bytes at a time, where charAt took one under C1.
    return java.util.Arrays.equals(label, c.comparedContextBytes);
  }

  /** The names a multiply-linked inode was met under in this root, each with its spec's context. */
  private static final class LinkNames {
    private final List<byte[]> paths = new ArrayList<>(2);
    private final List<String> contexts = new ArrayList<>(2);

    synchronized void add(byte[] path, String context) {
      paths.add(path);
      contexts.add(context);
    }

    /**
     * The names in byte order, the smallest deciding (libselinux takes the first its walk meets,
     * which depends on its listing order and, with threads, on their timing); called once every
     * worker is done.
     */
    synchronized Decided decide(Inode inode) {
      Integer[] order = new Integer[paths.size()];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      java.util.Arrays.sort(order, (a, b) -> java.util.Arrays.compareUnsigned(paths.get(a), paths.get(b)));
      List<byte[]> sortedPaths = new ArrayList<>(order.length);
      List<String> sortedContexts = new ArrayList<>(order.length);
      for (int i : order) {
        sortedPaths.add(paths.get(i));
        sortedContexts.add(contexts.get(i));
      }
      return new Decided(inode.device(), inode.inode(), sortedPaths, sortedContexts);
    }
  }

  /**
   * setfiles' hard link rule (libselinux's {@code filespec_add}): one name of an inode fixes its
   * label and is the only one handled; every other name is left alone, and reported when its spec
   * gives a different label ({@link LinkConflicts}). libselinux takes the first name its walk meets, which with several
   * workers depends on their timing; here the inode is decided when the root's walk is done, by
   * the smallest of its names (byte order), so every run at every -T makes the same choice. Each
   * deciding name is reached again from the root, one O_NOFOLLOW directory at a time, and
   * labelled only if it is still the same inode. A dry run reports one change per inode.
   */
  void labelMultiLinked(byte[] root) {
    if (links.isEmpty() || cancelled()) {
      return;
    }
    List<Decided> decided = new ArrayList<>(links.size());
    links.forEach((inode, names) -> decided.add(names.decide(inode)));
    decided.sort((a, b) -> java.util.Arrays.compareUnsigned(a.path(), b.path()));
    for (Decided inode : decided) {
      LinkConflicts.report(inode.names(), inode.contexts(), listener);
    }
    Counters c = counters();
    Revisit.visit(tree, root, decided,
        (directory, name, inode) -> apply(directory, new FileTree.Entry(name, FileType.ANY), inode.path(), inode.context(), c),
        this::fail);
  }

  /**
   * A multiply-linked inode, decided: its names in byte order, each with its spec's context; the
   * first is labelled, with its context.
   */
  private record Decided(long device, long inode, List<byte[]> names, List<String> contexts)
      implements Revisit.Entry {
    @Override
    public byte[] path() {
      return names.get(0);
    }

    String context() {
      return contexts.get(0);
    }
  }

  void fail(byte[] path, IOException e) {
    int errno = e instanceof NativeIoException n ? n.errno() : 0;
    String message = e instanceof NativeIoException n ? n.operation() + ": " + n.describe()
        : String.valueOf(e.getMessage());
    fail(path, errno, message);
  }

  void fail(byte[] path, int errno, String message) {
    rootFailed = true;
    RelabelReport.Failure failure = new RelabelReport.Failure(path, errno, message);
    counters().failures.add(failure);
    listener.failed(failure);
  }

  static byte[] join(byte[] directory, byte[] name) {
    boolean root = directory.length == 1 && directory[0] == '/';
    byte[] path = new byte[directory.length + (root ? 0 : 1) + name.length];
    System.arraycopy(directory, 0, path, 0, directory.length);
    int at = directory.length;
    if (!root) {
      path[at++] = '/';
    }
    System.arraycopy(name, 0, path, at, name.length);
    return path;
  }

  /** The report; call only after every task has finished. */
  RelabelReport report(Duration elapsed) {
    long visited = 0;
    long relabeled = 0;
    long unmatched = 0;
    List<RelabelReport.Failure> failures = new ArrayList<>();
    Set<Spec> used = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Counters c : allCounters()) {
      used.addAll(c.usedSpecs);
      visited += c.visited;
      relabeled += c.relabeled;
      unmatched += c.unmatched;
      failures.addAll(c.failures);
    }
    if (failures.size() > 1) {
      failures.sort((a, b) -> java.util.Arrays.compareUnsigned(a.path(), b.path()));
    }
    List<Spec> unused = options.reportUnusedSpecs()
        ? matcher.specsInLibselinuxOrder().stream().filter(spec -> !used.contains(spec)).toList()
        : List.of();
    return new RelabelReport(visited, relabeled, unmatched, failures, cancelled(), elapsed, unused);
  }
}
