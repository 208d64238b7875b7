package dev.relabel.policy;

import static java.util.Objects.requireNonNull;

import dev.relabel.regex.PcrePattern;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything libselinux's file backend loads for one {@code file_contexts}: the specs of the base
 * file, then {@code .homedirs}, then {@code .local}, in file order, and the path aliases of
 * {@code .subs} and {@code .subs_dist}, in file order.
 *
 * <p>A policy read from a compiled policy ({@link PolicyCache}) decodes each spec and expression
 * when it is first asked for, so that a start that looks up a few paths touches a few specs: its
 * {@link #specs()} is an unmodifiable list like any other. Immutable and thread-safe either way.
 */
public final class Policy {
  private final Path baseFile;
  private final List<Spec> specs;
  private final List<PathAlias> localAliases;
  private final List<PathAlias> distAliases;
  /** The loader's compiled expressions; null for a policy read from a compiled policy. */
  private final Map<String, PcrePattern> compiledExpressions;
  /** The compiled policy the specs are decoded from; null for a policy loaded from text. */
  private final CompiledSpecs compiled;

  /**
   * A policy as loaded from its text files.
   *
   * @param baseFile the {@code file_contexts} the others were found beside
   * @param specs every spec, base file first, each file in line order
   * @param localAliases {@code file_contexts.subs}, applied first
   * @param distAliases {@code file_contexts.subs_dist}, applied after (and to the result of) the local ones
   * @param compiledExpressions what the loader compiled while checking the specs, {@code "^" + REGEX
   *     + "$"} by {@code REGEX} as written: a matcher takes these instead of compiling them again
   *     (most of a load's time otherwise). Not part of the policy's value: equality ignores it.
   */
  public Policy(Path baseFile, List<Spec> specs, List<PathAlias> localAliases, List<PathAlias> distAliases,
      Map<String, PcrePattern> compiledExpressions) {
    this.baseFile = requireNonNull(baseFile, "baseFile");
    this.specs = List.copyOf(specs);
    this.localAliases = List.copyOf(localAliases);
    this.distAliases = List.copyOf(distAliases);
    this.compiledExpressions = Map.copyOf(compiledExpressions);
    this.compiled = null;
  }

  /** A policy made by hand: its matcher compiles every expression itself. */
  public Policy(Path baseFile, List<Spec> specs, List<PathAlias> localAliases, List<PathAlias> distAliases) {
    this(baseFile, specs, localAliases, distAliases, Map.of());
  }

  /** A policy read from a compiled policy. */
  Policy(Path baseFile, CompiledSpecs compiled, List<PathAlias> localAliases, List<PathAlias> distAliases) {
    this.baseFile = requireNonNull(baseFile, "baseFile");
    this.specs = compiled;
    this.localAliases = List.copyOf(localAliases);
    this.distAliases = List.copyOf(distAliases);
    this.compiledExpressions = null;
    this.compiled = compiled;
  }

  /** The {@code file_contexts} the others were found beside. */
  public Path baseFile() {
    return baseFile;
  }

  /** Every spec, base file first, each file in line order. */
  public List<Spec> specs() {
    return specs;
  }

  /** {@code file_contexts.subs}, applied first. */
  public List<PathAlias> localAliases() {
    return localAliases;
  }

  /** {@code file_contexts.subs_dist}, applied after (and to the result of) the local ones. */
  public List<PathAlias> distAliases() {
    return distAliases;
  }

  /**
   * The expressions the loader compiled (or a compiled policy translated), {@code "^" + REGEX + "$"}
   * by {@code REGEX} as written; only those that needed it (see {@link PcrePattern#checkAnchored}).
   */
  public Map<String, PcrePattern> compiledExpressions() {
    return compiled != null ? compiled.expressions() : compiledExpressions;
  }

  /** The compiled expression of {@code specs().get(index)}, or null when there is none to take. */
  public PcrePattern compiledExpression(int index) {
    return compiled != null ? compiled.expression(index) : compiledExpressions.get(specs.get(index).regex());
  }

  /**
   * What the matcher stored beside the specs in the compiled policy this was read from (its search
   * order and prefix index, see {@link PolicyCache#compile(Path, java.util.function.Function)}), as
   * a read-only buffer of its own; empty for a policy loaded from text.
   */
  public Optional<ByteBuffer> matcherSection() {
    return compiled == null ? Optional.empty() : compiled.matcherSection();
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

  @Override
  public String toString() {
    return "Policy[" + baseFile + ", " + specs.size() + " specs, " + localAliases.size() + " local and "
        + distAliases.size() + " dist aliases]";
  }
}
