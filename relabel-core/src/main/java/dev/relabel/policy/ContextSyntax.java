package dev.relabel.policy;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks that a context is well formed ({@code user:role:type[:range]}) without a loaded kernel
 * policy. libselinux (with validation) additionally asks the kernel whether the context is
 * valid; on a machine without SELinux that question cannot be asked, so only the syntax is checked.
 */
public final class ContextSyntax {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_.\\-]+");
  /**
   * A range as the kernel's and libsepol's {@code mls_context_to_sid} read it, whatever the policy:
   * {@code LOW[-HIGH]}, each level {@code SENSITIVITY[:CATEGORIES]}, the categories a
   * comma-separated list of {@code CAT} or {@code CAT.CAT}. They cut a sensitivity at the first
   * {@code -} or {@code :} and a category at {@code ,}, {@code -} and the first {@code .}, and look
   * each piece up as a name; so an empty piece ({@code s0-}, {@code s0:c0,,c1}), a second {@code -}
   * ({@code s0--s1}, {@code s0-s0-s0}), a second {@code :} or a category range of one name
   * ({@code c0.c0}: the first must be below the second) can be valid in no policy. What only a
   * policy decides (which names exist, their order, whether HIGH dominates LOW) is not checked.
   */
  private static final Pattern RANGE;

  static {
    String sensitivity = "[A-Za-z0-9_][A-Za-z0-9_.]*";
    String category = "[A-Za-z0-9_]+(?:\\.[A-Za-z0-9_][A-Za-z0-9_.]*)?";
    String level = sensitivity + "(?::" + category + "(?:," + category + ")*)?";
    RANGE = Pattern.compile(level + "(?:-" + level + ")?");
  }

  private ContextSyntax() {}

  /** Why {@code context} is malformed, or empty when it is a well-formed context or {@code <<none>>}. */
  public static Optional<String> problem(String context) {
    if (Spec.NONE.equals(context)) {
      return Optional.empty();
    }
    String[] parts = context.split(":", 4);
    if (parts.length < 3) {
      return Optional.of("invalid context " + context + ": expected user:role:type[:range]");
    }
    String[] names = {"user", "role", "type"};
    for (int i = 0; i < 3; i++) {
      if (!IDENTIFIER.matcher(parts[i]).matches()) {
        return Optional.of("invalid context " + context + ": malformed " + names[i] + " '" + parts[i] + "'");
      }
    }
    if (parts.length == 4) {
      String range = parts[3];
      boolean ok = RANGE.matcher(range).matches() && !hasEmptyCategoryRange(range);
      if (!ok) {
        return Optional.of("invalid context " + context + ": malformed range '" + range + "'");
      }
    }
    return Optional.empty();
  }

  /** Whether a category item names the same category on both sides of its '.' ({@code c0.c0}). */
  private static boolean hasEmptyCategoryRange(String range) {
    for (String level : range.split("-")) {
      int colon = level.indexOf(':');
      if (colon >= 0) {
        for (String item : level.substring(colon + 1).split(",")) {
          int dot = item.indexOf('.');
          if (dot >= 0 && item.substring(0, dot).equals(item.substring(dot + 1))) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
