package dev.relabel.context;

import java.util.Set;



/**
 * What {@code selinux_restorecon} does with an entry's current label and the one its spec gives:
 *
 * <ul>
 *   <li>no current label: set the spec's whole context;
 *   <li>with {@code force} ({@code -F}): set the spec's whole context when it differs;
 *   <li>a current type listed in {@code customizable_types}: keep it (unless {@code force});
 *   <li>otherwise only the type changes: when the types differ, the new label is the current
 *       user, role and range with the spec's type; when they agree nothing changes. With
 *       {@code userRoleType} ({@code -U}) user and role are taken from the spec too.
 * </ul>
 */
public final class LabelRules {
  /** The outcome for one entry. */
  public sealed interface Decision {}

  /** Leave the label as it is. */
  public record Keep() implements Decision {}

  /** Leave it: its type is customizable and {@code -F} was not given. */
  public record KeepCustomized(String current) implements Decision {}

  /** Write {@code context}. */
  public record Relabel(String context) implements Decision {}

  /** The current label is not a context at all and only its type was to change. */
  public record Malformed(String current) implements Decision {}

  private static final Keep KEEP = new Keep();

  private final boolean force;
  private final boolean userRoleType;
  private final Set<String> customizableTypes;

  public LabelRules(boolean force, boolean userRoleType, Set<String> customizableTypes) {
    this.force = force;
    this.userRoleType = userRoleType;
    this.customizableTypes = Set.copyOf(customizableTypes);
  }

  /**
   * @param current the entry's label (without the trailing NUL), or null when it has none
   * @param specified the context the policy gives it
   */
  public Decision decide(String current, String specified) {
    if (current == null) {
      return new Relabel(specified);
    }
    if (current.equals(specified)) {
      return KEEP;
    }
    if (force) {
      return new Relabel(specified);
    }
    var currentContext = SecurityContext.parse(current);
    if (currentContext.isPresent() && customizableTypes.contains(currentContext.get().type())) {
      return new KeepCustomized(current);
    }
    var specContext = SecurityContext.parse(specified);
    if (currentContext.isEmpty() || specContext.isEmpty()) {
      return new Malformed(current);
    }
    SecurityContext have = currentContext.get();
    SecurityContext want = specContext.get();
    if (userRoleType) {
      if (have.user().equals(want.user()) && have.role().equals(want.role()) && have.type().equals(want.type())) {
        return KEEP;
      }
      return new Relabel(want.withRange(have.range()).toString());
    }
    if (have.type().equals(want.type())) {
      return KEEP;
    }
    return new Relabel(have.withType(want.type()).toString());
  }
}
