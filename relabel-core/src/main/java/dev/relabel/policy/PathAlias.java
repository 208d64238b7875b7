package dev.relabel.policy;

import static java.util.Objects.requireNonNull;

/**
 * One line of {@code file_contexts.subs} or {@code .subs_dist}: paths under {@code alias} are
 * labelled as if they were under {@code target} ({@code /lib64 /usr/lib}).
 *
 * @param alias the path prefix that is replaced, matched on a whole component boundary
 * @param target what it is replaced with
 */
public record PathAlias(String alias, String target) {
  public PathAlias {
    requireNonNull(alias, "alias");
    requireNonNull(target, "target");
  }
}
