package dev.relabel.match;

import dev.relabel.policy.PathBytes;
import dev.relabel.policy.FileType;
import java.util.Arrays;

/**
 * What a walker carries per directory, so that a child's lookup does only the work its own name
 * adds. It holds the directory's key and two kinds of candidates:
 *
 * <ul>
 *   <li>the specs whose required prefix the directory's key (plus '/') already satisfies, less
 *       those that can no longer match anything beneath it (their shape or expression failed on
 *       {@code KEY/} before reaching its end), in libselinux's order; and of those, the ones
 *       whose required literals a child's key {@code KEY/NAME} can still hold, with how much of
 *       them {@code KEY/} already holds, so that a child's lookup searches only its name, and
 *       what NAME must start with where that is known, compared first;
 *   <li>the trie node at {@code KEY/}, from which a child's name walks to the specs whose prefix
 *       reaches into the name.
 * </ul>
 *
 * <p>It answers exactly as {@link LabelMatcher#lookup} does on the joined path. Immutable; any
 * number of threads may share one.
 */
public final class DirectoryMatch {
  private final LabelMatcher matcher;
  /** The directory's path with slashes cleaned, before aliases. */
  private final String cleanPath;
  /** The directory's key (aliased). */
  private final String key;
  /**
   * What every child key starts with (unless the child's name ends an alias): {@code key} and a
   * '/', except where an alias of "/" gave the directory itself its key.
   */
  private final String childPrefix;
  /** Specs whose required prefix is no longer than {@code childPrefix}, still able to match. */
  private final int[] candidates;
  /** For each of {@code candidates}, how far {@code childPrefix} holds its required runs. */
  private final long[] runsFound;
  /**
   * Those of {@code candidates} that can match a child's key, {@code childPrefix + NAME}: what a
   * lookup tries. The rest may still match deeper down, so {@link #enter} starts from all.
   */
  private final int[] childCandidates;
  /** For each of {@code childCandidates}, its {@link CompiledSpec#childProgress} here. */
  private final int[] childProgress;
  /** For each of {@code childCandidates}, its {@link CompiledSpec#childNameHead} here, or null. */
  private final String[] childNameHeads;
  /** The trie node at {@code childPrefix}; {@link PrefixIndex#NONE} when no spec's prefix reaches it. */
  private final int below;

  private DirectoryMatch(LabelMatcher matcher, String cleanPath, String key, String childPrefix,
      int[] candidates, long[] runsFound, int[] childCandidates, int[] childProgress, String[] childNameHeads,
      int below) {
    this.matcher = matcher;
    this.cleanPath = cleanPath;
    this.key = key;
    this.childPrefix = childPrefix;
    this.candidates = candidates;
    this.runsFound = runsFound;
    this.childCandidates = childCandidates;
    this.childProgress = childProgress;
    this.childNameHeads = childNameHeads;
    this.below = below;
  }

  /**
   * The state of a directory, from {@code found}: the specs (sorted) whose required prefix
   * {@code childPrefix} satisfies, narrowed here to those that may still match beneath it and,
   * of those, the ones a child's key may match.
   *
   * @param searchedTo how much of {@code childPrefix} {@code found}'s runsFound cover (its
   *     parent's childPrefix)
   */
  private static DirectoryMatch narrowed(LabelMatcher matcher, String cleanPath, String key, String childPrefix,
      Found candidates, int searchedTo, int below) {
    int[] found = candidates.ranks();
    long[] foundRuns = candidates.runsFound();
    int[] kept = new int[found.length];
    long[] keptRuns = new long[found.length];
    int[] forChildren = new int[found.length];
    int[] progress = new int[found.length];
    String[] nameHeads = new String[found.length];
    int keptCount = 0;
    int childCount = 0;
    for (int k = 0; k < found.length; k++) {
      CompiledSpec spec = matcher.spec(found[k]);
      CompiledSpec.Extensions extensions = spec.extensionsOf(childPrefix);
      if (extensions == CompiledSpec.Extensions.NONE) {
        continue;
      }
      long runs = spec.runsFound(childPrefix, foundRuns[k], searchedTo);
      kept[keptCount] = found[k];
      keptRuns[keptCount++] = runs;
      int childProgress = spec.childProgress(childPrefix, runs);
      if (childProgress != CompiledSpec.NO_CHILD) {
        forChildren[childCount] = found[k];
        nameHeads[childCount] = spec.childNameHead(childPrefix, childProgress);
        progress[childCount++] = childProgress;
      }
      if (extensions == CompiledSpec.Extensions.EVERY) {
        // It wins every lookup beneath that reaches it: the specs after it never can.
        break;
      }
    }
    return new DirectoryMatch(matcher, cleanPath, key, childPrefix,
        keptCount == found.length ? found : Arrays.copyOf(kept, keptCount), Arrays.copyOf(keptRuns, keptCount),
        Arrays.copyOf(forChildren, childCount), Arrays.copyOf(progress, childCount),
        Arrays.copyOf(nameHeads, childCount), below);
  }

  /** The state for a cleaned path, computed from the trie alone. */
  static DirectoryMatch of(LabelMatcher matcher, String cleanPath) {
    String key = matcher.normalizer().alias(cleanPath);
    // The two differ only where an alias of "/" applies to the directory itself (see aliasForChildren).
    String childPrefix = childPrefix(matcher.normalizer().aliasForChildren(cleanPath));
    PrefixIndex index = matcher.index();
    long[] runs = new long[index.maxLists()];
    int count = 0;
    if (index.hasRanks(PrefixIndex.ROOT)) {
      runs[count++] = index.rankRun(PrefixIndex.ROOT);
    }
    count = index.collect(PrefixIndex.ROOT, childPrefix, 0, runs, count);
    Found found = merge(new int[0], new long[0], index.ranks(), runs, count);
    return narrowed(matcher, cleanPath, key, childPrefix, found, 0, index.find(childPrefix));
  }

  private static String childPrefix(String key) {
    return key.equals("/") ? "/" : key + "/";
  }

  /** Candidate specs in rank order, with how far a key already holds each one's required runs. */
  private record Found(int[] ranks, long[] runsFound) {}

  /**
   * The sorted union of {@code first} (with {@code firstRuns}) and the runs {@code runs[0..count)}
   * of {@code ranks}, each sorted and all disjoint; the specs from the runs have not been
   * searched. The runs are used up.
   */
  private static Found merge(int[] first, long[] firstRuns, int[] ranks, long[] runs, int count) {
    int total = first.length;
    for (int i = 0; i < count; i++) {
      total += (int) runs[i] - (int) (runs[i] >>> 32);
    }
    if (total == first.length) {
      return new Found(first, firstRuns);
    }
    int[] all = new int[total];
    long[] allRuns = new long[total];
    int next = 0;
    for (int k = 0; k < total; k++) {
      int best = RankMerge.lowestRun(ranks, runs, count, next < first.length ? first[next] : Integer.MAX_VALUE);
      if (best < 0) {
        all[k] = first[next];
        allRuns[k] = firstRuns[next++];
      } else {
        all[k] = ranks[(int) (runs[best] >>> 32)];
        allRuns[k] = CompiledSpec.NOT_SEARCHED;
        runs[best] += 1L << 32;
      }
    }
    return new Found(all, allRuns);
  }

  /** The directory's key, as libselinux would match it. */
  public String key() {
    return key;
  }

  /** How many specs can match any entry beneath this directory without reading its name. */
  public int candidateCount() {
    return candidates.length;
  }

  /** The label of the entry {@code name} (one path component, raw bytes) in this directory. */
  public Label lookup(byte[] name, FileType type) {
    return lookup(PathBytes.latin1(name), type);
  }

  /** As {@link #lookup(byte[], FileType)}, for a name held one char per byte. */
  public Label lookup(String latin1Name, FileType type) {
    checkName(latin1Name);
    if (matcher.normalizer().mayAliasChild(latin1Name)) {
      return matcher.lookupKey(matcher.normalizer().alias(childPath(latin1Name)), type);
    }
    String childKey = childPrefix.concat(latin1Name);
    PrefixIndex index = matcher.index();
    // Most directories have no spec whose prefix reaches into a name: nothing to collect then.
    long[] runs = below == PrefixIndex.NONE ? null : new long[index.maxLists()];
    int count = runs == null ? 0 : index.collect(below, childKey, childPrefix.length(), runs, 0);
    return RankMerge.first(matcher, childCandidates, childProgress, childNameHeads, index.ranks(), runs, count,
        childKey, childPrefix.length(), type);
  }

  /** The state of the subdirectory {@code name}. */
  public DirectoryMatch enter(byte[] name) {
    return enter(PathBytes.latin1(name));
  }

  /** As {@link #enter(byte[])}, for a name held one char per byte. */
  public DirectoryMatch enter(String latin1Name) {
    checkName(latin1Name);
    String path = childPath(latin1Name);
    String childKey = childPrefix.concat(latin1Name);
    KeyNormalizer normalizer = matcher.normalizer();
    // A name that ends some alias's source (lib, bin, system) mostly sits where that alias does
    // not apply (/usr/share/perl/.../lib): only where it does is the state built anew.
    if (normalizer.mayAliasChild(latin1Name)
        && !(normalizer.alias(path).equals(childKey) && normalizer.aliasForChildren(path).equals(childKey))) {
      return of(matcher, path);
    }
    String grandchildPrefix = childKey.concat("/");
    PrefixIndex index = matcher.index();
    long[] runs = new long[index.maxLists()];
    int count = below == PrefixIndex.NONE ? 0 : index.collect(below, grandchildPrefix, childPrefix.length(), runs, 0);
    int next = below;
    for (int i = childPrefix.length(); i < grandchildPrefix.length() && next != PrefixIndex.NONE; i++) {
      next = index.child(next, grandchildPrefix.charAt(i));
    }
    Found found = merge(candidates, runsFound, index.ranks(), runs, count);
    return narrowed(matcher, path, childKey, grandchildPrefix, found, childPrefix.length(), next);
  }

  private String childPath(String name) {
    return cleanPath.equals("/") ? "/" + name : cleanPath + "/" + name;
  }

  private static void checkName(String name) {
    if (name.isEmpty() || name.indexOf('/') >= 0) {
      throw new IllegalArgumentException("not a single path component: " + name);
    }
  }

  @Override
  public String toString() {
    return key + " (" + candidates.length + " candidate specs)";
  }
}
