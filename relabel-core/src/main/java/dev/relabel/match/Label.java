package dev.relabel.match;

import dev.relabel.policy.Spec;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to "which label does this path get?": a context from a spec, {@code <<none>>} (leave
 * the file alone), or no spec at all. libselinux answers the last two alike (ENOENT); they are
 * kept apart here because a relabeller reports them differently.
 */
public final class Label {
  /** What kind of answer this is. */
  public enum Kind {
    /** A spec gives this path a context. */
    CONTEXT,
    /** The winning spec says {@code <<none>>}: the path must not be relabelled. */
    NONE,
    /** No spec matches the path. */
    NO_MATCH
  }

  private static final Label NO_MATCH = new Label(Kind.NO_MATCH, null);

  private final Kind kind;
  private final Spec spec;

  private Label(Kind kind, Spec spec) {
    this.kind = kind;
    this.spec = spec;
  }

  static Label of(Spec spec) {
    return new Label(spec.isNone() ? Kind.NONE : Kind.CONTEXT, spec);
  }

  /** The answer when no spec matches. */
  public static Label noMatch() {
    return NO_MATCH;
  }

  public Kind kind() {
    return kind;
  }

  /** The context to set, when {@link #kind()} is {@link Kind#CONTEXT}. */
  public Optional<String> context() {
    return kind == Kind.CONTEXT ? Optional.of(spec.context()) : Optional.empty();
  }

  /** The spec that decided, unless nothing matched. */
  public Optional<Spec> spec() {
    return Optional.ofNullable(spec);
  }

  /** What {@code matchpathcon} prints: the context, {@code <<none>>}, or nothing for no match. */
  public String display() {
    return switch (kind) {
      case CONTEXT -> spec.context();
      case NONE -> Spec.NONE;
      case NO_MATCH -> "";
    };
  }

  /** Whether {@code other} labels a path the same way: same kind, same context (whichever spec says it). */
  public boolean sameOutcome(Label other) {
    return kind == other.kind && context().equals(other.context());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Label other && kind == other.kind && Objects.equals(spec, other.spec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, spec);
  }

  @Override
  public String toString() {
    return kind == Kind.NO_MATCH ? "<no match>" : display() + " (" + spec.location() + ")";
  }
}
