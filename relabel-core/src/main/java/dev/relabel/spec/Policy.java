package dev.relabel.spec;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything libselinux's file backend loads for one {@code file_contexts}: the specs of the base
 * file, then {@code .homedirs}, then {@code .local}, in file order, and the path aliases of
 * {@code .subs} and {@code .subs_dist}, in file order.
 *
 * @param baseFile the {@code file_contexts} the others were found beside
 * @param specs every spec, base file first, each file in line order
 * @param localAliases {@code file_contexts.subs}, applied first
 * @param distAliases {@code file_contexts.subs_dist}, applied after (and to the result of) the local ones
 */
public record Policy(Path baseFile, List<Spec> specs, List<PathAlias> localAliases, List<PathAlias> distAliases) {
  public Policy {
    requireNonNull(baseFile, "baseFile");
    specs = List.copyOf(specs);
    localAliases = List.copyOf(localAliases);
    distAliases = List.copyOf(distAliases);
  }
}
