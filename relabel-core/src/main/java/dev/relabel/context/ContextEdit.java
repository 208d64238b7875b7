package dev.relabel.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * chcon's change to a label: either a whole context ({@code chcon CONTEXT}, {@code --reference})
 * or field edits ({@code -u USER -r ROLE -t TYPE -l RANGE}) applied to the label an entry has.
 * Immutable.
 *
 * <p>A field edit works as libselinux's {@code context_new}, {@code context_*_set} and
 * {@code context_str} do, which coreutils chcon calls: the current label is split at its first
 * three colons (the range is the rest, and may hold colons), 2 to 5 colons, no tab, CR or LF,
 * and no space before the range; a user, role or type may hold no colon nor space, no field a tab, CR or LF.
 */
public final class ContextEdit {
  /** The fields, in the order chcon sets them (and so reports bad ones): user, range, role, type. */
  public enum Field {
    USER(0, "user"), RANGE(3, "range"), ROLE(1, "role"), TYPE(2, "type");

    private final int index;
    private final String word;

    Field(int index, String word) {
      this.index = index;
      this.word = word;
    }

    /** The field's name as chcon's messages say it ({@code user}, {@code role}, ...). */
    public String word() {
      return word;
    }
  }

  /** What an edit makes of one entry's label. */
  public sealed interface Outcome {}

  /** The label the entry gets. */
  public record Result(String context) implements Outcome {}

  /** The entry has no label, and only some fields were given: chcon gives up. */
  public record Unlabeled() implements Outcome {}

  /** The current label is no context libselinux can split ({@code context_new} fails, EINVAL). */
  public record Malformed(String current) implements Outcome {}

  /** Values no field may hold (EINVAL), each with its field, in the order chcon reports them. */
  public record BadFields(List<BadField> fields) implements Outcome {
    public BadFields {
      fields = List.copyOf(fields);
    }
  }

  /** One value a field may not hold. */
  public record BadField(Field field, String value) {}

  /** The whole context, or null for field edits. */
  private final String whole;
  /** The values by {@link Field#index}; null where the field is kept. */
  private final String[] fields;

  private ContextEdit(String whole, String[] fields) {
    this.whole = whole;
    this.fields = fields;
  }

  /** Every entry gets {@code context}, whatever it had (chcon does not check it unless SELinux is enabled). */
  public static ContextEdit whole(String context) {
    return new ContextEdit(Objects.requireNonNull(context, "context"), new String[4]);
  }

  public static Builder fields() {
    return new Builder();
  }

  /** Field edits, given one at a time; at least one is needed. */
  public static final class Builder {
    private final String[] fields = new String[4];

    private Builder() {}

    public Builder user(String user) {
      return set(Field.USER, user);
    }

    public Builder role(String role) {
      return set(Field.ROLE, role);
    }

    public Builder type(String type) {
      return set(Field.TYPE, type);
    }

    public Builder range(String range) {
      return set(Field.RANGE, range);
    }

    public Builder set(Field field, String value) {
      fields[field.index] = value;
      return this;
    }

    public ContextEdit build() {
      boolean any = false;
      for (String value : fields) {
        any |= value != null;
      }
      if (!any) {
        throw new IllegalStateException("no field to change: give a user, role, type or range");
      }
      return new ContextEdit(null, fields.clone());
    }
  }

  /** The whole context, when this edit sets one. */
  public Optional<String> wholeContext() {
    return Optional.ofNullable(whole);
  }

  public boolean isWhole() {
    return whole != null;
  }

  /** The value given for {@code field}, when this edit changes it. */
  public Optional<String> value(Field field) {
    return Optional.ofNullable(fields[field.index]);
  }

  /**
   * The label an entry whose label is {@code current} (its text up to the first NUL; null when it
   * has none) gets.
   */
  public Outcome apply(String current) {
    if (whole != null) {
      return new Result(whole);
    }
    if (current == null) {
      return new Unlabeled();
    }
    String[] parts = split(current);
    if (parts == null) {
      return new Malformed(current);
    }
    List<BadField> bad = new ArrayList<>();
    for (Field field : Field.values()) {
      String value = fields[field.index];
      if (value == null) {
        continue;
      }
      if (allowed(field, value)) {
        parts[field.index] = value;
      } else {
        bad.add(new BadField(field, value));
      }
    }
    if (!bad.isEmpty()) {
      return new BadFields(bad);
    }
    StringBuilder text = new StringBuilder(current.length() + 16).append(parts[0]);
    for (int i = 1; i < 4; i++) {
      if (parts[i] != null) {
        text.append(':').append(parts[i]);
      }
    }
    return new Result(text.toString());
  }

  /**
   * {@code context_new}: user, role, type up to a colon each, the range the rest; a field the text
   * ends before is absent (null), so "u:r:" has no type and "u:r:t:" no range.
   */
  private static String[] split(String context) {
    int colons = 0;
    for (int i = 0; i < context.length(); i++) {
      char c = context.charAt(i);
      if (c == ':') {
        colons++;
      } else if (c == '\n' || c == '\t' || c == '\r' || (c == ' ' && colons < 3)) {
        // A blank may be in the range (after the third colon) only.
        return null;
      }
    }
    if (colons < 2 || colons > 5) {
      return null;
    }
    String[] parts = new String[4];
    int at = 0;
    for (int i = 0; at < context.length(); i++) {
      int end = i < 3 ? context.indexOf(':', at) : context.length();
      if (end < 0) {
        end = context.length();
      }
      parts[i] = context.substring(at, end);
      at = end < context.length() ? end + 1 : end;
    }
    return parts;
  }

  /** {@code set_comp}: no tab, CR or LF anywhere; no colon or space but in the range. */
  private static boolean allowed(Field field, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\t' || c == '\n' || c == '\r' || ((c == ':' || c == ' ') && field != Field.RANGE)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    if (whole != null) {
      return whole;
    }
    StringBuilder text = new StringBuilder("fields");
    for (Field field : Field.values()) {
      if (fields[field.index] != null) {
        text.append(' ').append(field.word()).append('=').append(fields[field.index]);
      }
    }
    return text.toString();
  }
}
