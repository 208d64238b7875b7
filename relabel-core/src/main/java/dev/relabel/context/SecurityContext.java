package dev.relabel.context;

import java.util.Optional;

/**
 * A context split into its fields, as libselinux's {@code context_new} splits it:
 * {@code user:role:type[:range]}, the range holding any further colons.
 *
 * @param range the MLS range, or null when the context has none
 */
public record SecurityContext(String user, String role, String type, String range) {
  /** The fields of {@code context}, or empty when it does not have at least three. */
  public static Optional<SecurityContext> parse(String context) {
    String[] parts = context.split(":", 4);
    if (parts.length < 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SecurityContext(parts[0], parts[1], parts[2], parts.length == 4 ? parts[3] : null));
  }

  public SecurityContext withType(String newType) {
    return new SecurityContext(user, role, newType, range);
  }

  public SecurityContext withRange(String newRange) {
    return new SecurityContext(user, role, type, newRange);
  }

  @Override
  public String toString() {
    return user + ":" + role + ":" + type + (range == null ? "" : ":" + range);
  }
}
