package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The directories a relabel neither labels nor enters, and libselinux's one test of them
 * ({@code check_excluded}), for the walk and for a front end that must know before it walks
 * (setfiles warns about a root's missing label only when the root is not excluded). Paths are
 * compared as bytes, whole components only.
 */
public final class Exclusions {
  /** Nothing excluded. */
  public static final Exclusions NONE = new Exclusions(Set.of());

  /** The excluded paths, one char per byte, without trailing slashes. */
  private final Set<String> paths;

  private Exclusions(Set<String> paths) {
    this.paths = Set.copyOf(paths);
  }

  /** The paths given as raw bytes. */
  public static Exclusions ofBytes(Collection<byte[]> paths) {
    Set<String> latin1 = new HashSet<>();
    for (byte[] path : paths) {
      latin1.add(PathBytes.latin1(path));
    }
    return new Exclusions(latin1);
  }

  /** The paths given one char per byte. */
  static Exclusions ofLatin1(Collection<String> paths) {
    return new Exclusions(new HashSet<>(paths));
  }

  boolean isEmpty() {
    return paths.isEmpty();
  }

  /**
   * Whether the directory {@code path}, met inside a walk, is itself excluded. Only an exact
   * match is looked for: every ancestor below the root was checked when it was met, and the
   * root's own ancestors by {@link #coversRoot}.
   */
  boolean containsDirectory(byte[] path) {
    return !paths.isEmpty() && paths.contains(PathBytes.latin1(path));
  }

  /** Whether {@code path}, a walk's root, is an excluded path or lies beneath one. */
  public boolean coversRoot(byte[] path) {
    if (paths.isEmpty()) {
      return false;
    }
    String text = PathBytes.latin1(path);
    if (paths.contains(text)) {
      return true;
    }
    for (int i = text.length() - 1; i > 0; i--) {
      if (text.charAt(i) == '/' && paths.contains(text.substring(0, i))) {
        return true;
      }
    }
    return false;
  }
}
