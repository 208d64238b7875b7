package dev.relabel.policy;

import static java.util.Objects.requireNonNull;

import dev.relabel.regex.PcrePattern;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything libselinux's file backend loads for one {@code file_contexts}: the specs of the base
 * file, then {@code .homedirs}, then {@code .local}, in file order, and the path aliases of
 * {@code .subs} and {@code .subs_dist}, in file order.
 *
 * @param baseFile the {@code file_contexts} the others were found beside
 * @param specs every spec, base file first, each file in line order
 * @param localAliases {@code file_contexts.subs}, applied first
 * @param distAliases {@code file_contexts.subs_dist}, applied after (and to the result of) the local ones
 * @param compiledExpressions what the loader compiled while checking the specs, {@code "^" + REGEX
 *     + "$"} by {@code REGEX} as written: a matcher takes these instead of compiling them again
 *     (most of a load's time otherwise). Not part of the policy's value: equality ignores it.
 */
public record Policy(Path baseFile, List<Spec> specs, List<PathAlias> localAliases, List<PathAlias> distAliases,
    Map<String, PcrePattern> compiledExpressions) {
  public Policy {
    requireNonNull(baseFile, "baseFile");
    specs = List.copyOf(specs);
    localAliases = List.copyOf(localAliases);
    distAliases = List.copyOf(distAliases);
    compiledExpressions = Map.copyOf(compiledExpressions);
  }

  /** A policy made by hand: its matcher compiles every expression itself. */
  public Policy(Path baseFile, List<Spec> specs, List<PathAlias> localAliases, List<PathAlias> distAliases) {
    this(baseFile, specs, localAliases, distAliases, Map.of());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Policy that && baseFile.equals(that.baseFile) && specs.equals(that.specs)
        && localAliases.equals(that.localAliases) && distAliases.equals(that.distAliases);
  }

  @Override
  public int hashCode() {
    return Objects.hash(baseFile, specs, localAliases, distAliases);
  }
}
