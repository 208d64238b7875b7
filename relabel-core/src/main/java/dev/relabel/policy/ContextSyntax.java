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
  // A level: a sensitivity and optional categories, each a name or a span, comma-separated: s0,
  // s0:c0.c1023, s0:c1,c5. A range is one level or two joined by '-' (s0-s15:c0.c1023); as
  // libsepol splits it at its first '-', no level holds one ("s0--s1" is malformed), and no list
  // an empty name ("c1,,c2").
  private static final String CATEGORY = "[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)?";
  private static final Pattern LEVEL = Pattern.compile("[A-Za-z0-9_]+(:" + CATEGORY + "(," + CATEGORY + ")*)?");

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
      int dash = range.indexOf('-');
      boolean ok = dash < 0
          ? LEVEL.matcher(range).matches()
          : LEVEL.matcher(range.substring(0, dash)).matches() && LEVEL.matcher(range.substring(dash + 1)).matches();
      if (!ok) {
        return Optional.of("invalid context " + context + ": malformed range '" + range + "'");
      }
    }
    return Optional.empty();
  }
}
