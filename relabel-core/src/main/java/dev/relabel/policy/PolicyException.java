package dev.relabel.policy;

import java.util.List;
import java.util.stream.Collectors;

/** A policy that cannot be used: every error found is listed, each with its file and line. */
public final class PolicyException extends Exception {
  private static final long serialVersionUID = 1L;

  private final List<PolicyError> errors;

  public PolicyException(List<PolicyError> errors) {
    super(errors.stream().map(PolicyError::toString).collect(Collectors.joining("\n")));
    if (errors.isEmpty()) {
      throw new IllegalArgumentException("a PolicyException needs at least one error");
    }
    this.errors = List.copyOf(errors);
  }

  public PolicyException(PolicyError error) {
    this(List.of(error));
  }

  /** Every error, in file and line order. */
  public List<PolicyError> errors() {
    return errors;
  }
}
