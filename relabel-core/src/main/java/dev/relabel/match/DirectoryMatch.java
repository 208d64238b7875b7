package dev.relabel.match;

import dev.relabel.spec.FileType;
import java.util.Arrays;

/**
 * What a walker carries per directory: the directory's key and the specs that can still match
 * something beneath it, in libselinux's order. A spec is dropped when its required prefix
 * excludes the directory, or when its expression, run on {@code KEY/}, failed without reaching the
 * end of the input (so no longer key can match it either).
 *
 * <p>Immutable; any number of threads may share one.
 */
public final class DirectoryMatch {
  private final LabelMatcher matcher;
  /** The directory's path with slashes cleaned, before aliases. */
  private final String cleanPath;
  /** The directory's key (aliased). */
  private final String key;
  /**
   * What every child key starts with (unless the child's name ends an alias): {@code key} with a
   * '/' after it, except where an alias of "/" gave the directory itself its key (see
   * {@link KeyNormalizer#aliasForChildren}).
   */
  private final String childPrefix;
  private final int[] candidates;

  private DirectoryMatch(LabelMatcher matcher, String cleanPath, String key, String childPrefix, int[] candidates) {
    this.matcher = matcher;
    this.cleanPath = cleanPath;
    this.key = key;
    this.childPrefix = childPrefix;
    this.candidates = candidates;
  }

  /** The state for a cleaned path, narrowed from every spec. */
  static DirectoryMatch of(LabelMatcher matcher, String cleanPath) {
    int[] all = new int[matcher.specCount()];
    Arrays.setAll(all, i -> i);
    KeyNormalizer normalizer = matcher.normalizer();
    // The two differ only where an alias of "/" applies to the directory itself.
    return narrow(matcher, cleanPath, normalizer.alias(cleanPath), normalizer.aliasForChildren(cleanPath), all);
  }

  private static DirectoryMatch narrow(
      LabelMatcher matcher, String cleanPath, String key, String childBase, int[] from) {
    String childPrefix = childBase.equals("/") ? "/" : childBase + "/";
    int[] kept = new int[from.length];
    int count = 0;
    for (int rank : from) {
      CompiledSpec spec = matcher.spec(rank);
      String prefix = spec.requiredPrefix;
      boolean keep;
      if (prefix.length() > childPrefix.length()) {
        keep = prefix.startsWith(childPrefix);
      } else {
        keep = childPrefix.startsWith(prefix) && spec.mayMatchExtensionOf(childPrefix);
      }
      if (keep) {
        kept[count++] = rank;
      }
    }
    return new DirectoryMatch(matcher, cleanPath, key, childPrefix, Arrays.copyOf(kept, count));
  }

  /** The directory's key, as libselinux would match it. */
  public String key() {
    return key;
  }

  /** How many specs can still match beneath this directory. */
  public int candidateCount() {
    return candidates.length;
  }

  /** The label of the entry {@code name} (one path component, raw bytes) in this directory. */
  public Label lookup(byte[] name, FileType type) {
    return lookup(Latin1.of(name), type);
  }

  /** As {@link #lookup(byte[], FileType)}, for a name held one char per byte. */
  public Label lookup(String latin1Name, FileType type) {
    checkName(latin1Name);
    if (matcher.normalizer().mayAliasChild(latin1Name)) {
      return matcher.lookupKey(matcher.normalizer().alias(childPath(latin1Name)), type);
    }
    String childKey = childPrefix + latin1Name;
    for (int rank : candidates) {
      CompiledSpec spec = matcher.spec(rank);
      if (spec.fileType.admits(type) && childKey.startsWith(spec.requiredPrefix) && spec.matches(childKey)) {
        return Label.of(spec.spec);
      }
    }
    return Label.noMatch();
  }

  /** The state of the subdirectory {@code name}. */
  public DirectoryMatch enter(byte[] name) {
    return enter(Latin1.of(name));
  }

  /** As {@link #enter(byte[])}, for a name held one char per byte. */
  public DirectoryMatch enter(String latin1Name) {
    checkName(latin1Name);
    String path = childPath(latin1Name);
    if (matcher.normalizer().mayAliasChild(latin1Name)) {
      return of(matcher, path);
    }
    String childKey = childPrefix + latin1Name;
    return narrow(matcher, path, childKey, childKey, candidates);
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
