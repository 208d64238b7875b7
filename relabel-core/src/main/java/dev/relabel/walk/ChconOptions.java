package dev.relabel.walk;

import dev.relabel.context.ContextEdit;
import java.util.Objects;

/**
 * How a {@link ContextChanger} runs ({@code chcon}'s options); immutable, made with {@link #builder}.
 *
 * @param edit the label change: a whole context or field edits
 * @param recurse label everything beneath each directory given ({@code -R}); symlinks met are
 *     labelled themselves and never followed ({@code -P}, chcon's default with {@code -R})
 * @param dereference without {@code recurse}: a symlink given is followed and its target labelled
 *     (chcon's default; {@code -h} turns it off). With {@code recurse} it must be off, as chcon
 *     refuses {@code -R --dereference} without {@code -H} or {@code -L}
 * @param preserveRoot refuse to recurse into "/" ({@code --preserve-root})
 * @param threads worker threads ({@code -T}); 0 means one per available core
 * @param announceEach tell the listener every entry before it is handled ({@code -v}:
 *     "changing security context of ..."); off, the walk calls the listener only for changes and
 *     failures
 */
public record ChconOptions(ContextEdit edit, boolean recurse, boolean dereference, boolean preserveRoot, int threads,
    boolean announceEach) {
  public ChconOptions {
    Objects.requireNonNull(edit, "edit");
    if (threads < 0) {
      throw new IllegalArgumentException("threads must be 0 (all cores) or more: " + threads);
    }
    if (recurse && dereference) {
      throw new IllegalArgumentException("-R --dereference requires either -H or -L");
    }
  }

  public static Builder builder(ContextEdit edit) {
    return new Builder(edit);
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    return new Builder(edit).recurse(recurse).dereference(dereference).preserveRoot(preserveRoot).threads(threads)
        .announceEach(announceEach);
  }

  /** The number of workers this asks for. */
  public int workerCount() {
    return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
  }

  /**
   * Defaults as chcon's: not recursive, symlinks given followed, "/" not protected, one thread,
   * no announcements. {@link #recurse(boolean) recurse(true)} turns dereferencing off unless it
   * was asked for.
   */
  public static final class Builder {
    private final ContextEdit edit;
    private boolean recurse;
    private Boolean dereference;
    private boolean preserveRoot;
    private int threads = 1;
    private boolean announceEach;

    private Builder(ContextEdit edit) {
      this.edit = Objects.requireNonNull(edit, "edit");
    }

    public Builder recurse(boolean on) {
      recurse = on;
      return this;
    }

    public Builder dereference(boolean on) {
      dereference = on;
      return this;
    }

    public Builder preserveRoot(boolean on) {
      preserveRoot = on;
      return this;
    }

    public Builder threads(int n) {
      threads = n;
      return this;
    }

    public Builder announceEach(boolean on) {
      announceEach = on;
      return this;
    }

    public ChconOptions build() {
      boolean follow = dereference != null ? dereference : !recurse;
      return new ChconOptions(edit, recurse, follow, preserveRoot, threads, announceEach);
    }
  }
}
