package dev.relabel.bench.scaling;

/**
 * One run of one tool in the plan.
 *
 * @param scope how the tree's paths are seen (as if it were {@code /}, or where it is)
 * @param mode relabel every entry or check a correctly labelled tree
 * @param threads {@code -T}
 * @param repeat which repetition (1-based) of this (scope, mode, threads) it is
 * @param tool the tool's name
 */
public record Trial(Scope scope, Mode mode, int threads, int repeat, String tool) {
  /** What a run does to the tree. */
  public enum Mode {
    /** Every entry has a wrong label before the run, and {@code -F} relabels all of them. */
    RELABEL,
    /** Every label is already right: the run reads and compares, and writes nothing. */
    CHECK;

    public String text() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Mode parse(String text) {
      return valueOf(text.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** How the tools see the tree's paths. */
  public enum Scope {
    /** {@code setfiles -r TREE}: labelled as if the tree were the system's root. */
    ROOT,
    /**
     * The tree at its real path: the only way restorecon (which has no {@code -r}) can label it,
     * so the restorecon comparison runs in this scope.
     */
    LITERAL;

    public String text() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Scope parse(String text) {
      return valueOf(text.toUpperCase(java.util.Locale.ROOT));
    }
  }
}
