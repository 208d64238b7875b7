package dev.relabel.match;

import dev.relabel.policy.FileType;
import dev.relabel.policy.Spec;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What changed between two policies, for a walk that relabels only what a policy update changed
 * ({@code fixfiles -C PREVIOUS}): whether an entry gets another label, and whether anything
 * beneath a directory can, so that a walk never reads a subtree no changed spec can reach.
 *
 * <p>A directory's subtree is unaffected when the specs that could match anything beneath it are
 * the same in both policies, in the same search order: same expression, type flag and context.
 * Which specs could match is decided soundly (never leaving one out): by required prefix and stem,
 * and by shape where a spec has one; every expression that passes those counts. Aliases
 * ({@code .subs}) must be the same in both policies and none may start inside the directory, or
 * the directory counts as affected.
 *
 * <p>Immutable and thread-safe.
 */
public final class PolicyDiff {
  private final LabelMatcher previous;
  private final LabelMatcher current;
  private final boolean sameAliases;
  private final List<String> aliasPaths;

  private PolicyDiff(LabelMatcher previous, LabelMatcher current) {
    this.previous = previous;
    this.current = current;
    this.sameAliases = previous.policy().localAliases().equals(current.policy().localAliases())
        && previous.policy().distAliases().equals(current.policy().distAliases());
    this.aliasPaths = Stream.concat(current.policy().localAliases().stream(), current.policy().distAliases().stream())
        .flatMap(alias -> Stream.of(alias.alias(), alias.target()))
        .toList();
  }

  public static PolicyDiff between(LabelMatcher previous, LabelMatcher current) {
    return new PolicyDiff(previous, current);
  }

  public LabelMatcher previous() {
    return previous;
  }

  public LabelMatcher current() {
    return current;
  }

  /** Whether the two policies label {@code latin1Path}, of type {@code type}, differently. */
  public boolean differs(String latin1Path, FileType type) {
    return !previous.lookup(latin1Path, type).sameOutcome(current.lookup(latin1Path, type));
  }

  /**
   * Whether some entry strictly beneath the directory {@code latin1Path} may get another label
   * from the current policy than from the previous one. False means the subtree need not be read.
   */
  public boolean mayDifferBeneath(String latin1Path) {
    if (!sameAliases) {
      return true;
    }
    String clean = KeyNormalizer.clean(latin1Path);
    String key = current.normalizer().key(clean);
    for (String aliasPath : aliasPaths) {
      if (isBeneath(aliasPath, clean) || isBeneath(aliasPath, key)) {
        return true;
      }
    }
    return !signature(previous, key).equals(signature(current, key));
  }

  private static boolean isBeneath(String path, String directory) {
    String prefix = directory.equals("/") ? "/" : directory + "/";
    return path.length() > prefix.length() && path.startsWith(prefix);
  }

  /** The specs that could match a key beneath {@code key}, in search order, as what decides a label. */
  private static List<String> signature(LabelMatcher matcher, String key) {
    List<String> specs = new ArrayList<>();
    for (int rank : matcher.ranksThatMayMatchBeneath(key)) {
      Spec spec = matcher.spec(rank).spec;
      specs.add(spec.regex() + '\0' + spec.fileType() + '\0' + spec.context());
    }
    return specs;
  }
}
