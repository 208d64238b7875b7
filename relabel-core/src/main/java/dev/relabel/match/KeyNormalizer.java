package dev.relabel.match;

import dev.relabel.policy.PathAlias;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns a requested path into the key libselinux matches: runs of '/' become one, one trailing '/'
 * goes (but "/" stays), then the {@code .subs} aliases and, on their result, the
 * {@code .subs_dist} aliases are applied. In each list the last line wins, as libselinux builds
 * each list by prepending.
 */
final class KeyNormalizer {
  private final PathAlias[] local;
  private final PathAlias[] dist;
  /** The last component of every alias's source: the names {@link #mayAliasChild} says yes to. */
  private final Set<String> lastComponents;
  /**
   * Bit n set when some alias's last component is n chars long (bit 63: 63 or longer): most names
   * are answered by this alone, without hashing them.
   */
  private final long lastComponentLengths;

  KeyNormalizer(List<PathAlias> local, List<PathAlias> dist) {
    this.local = reversed(local);
    this.dist = reversed(dist);
    Set<String> last = new HashSet<>();
    long lengths = 0;
    for (List<PathAlias> list : List.of(local, dist)) {
      for (PathAlias alias : list) {
        String src = alias.alias();
        String component = src.substring(src.lastIndexOf('/') + 1);
        last.add(component);
        lengths |= 1L << lengthBit(component);
      }
    }
    this.lastComponents = Set.copyOf(last);
    this.lastComponentLengths = lengths;
  }

  private static PathAlias[] reversed(List<PathAlias> aliases) {
    PathAlias[] result = new PathAlias[aliases.size()];
    for (int i = 0; i < result.length; i++) {
      result[i] = aliases.get(aliases.size() - 1 - i);
    }
    return result;
  }

  /** Whether there are any aliases at all. */
  boolean hasAliases() {
    return local.length + dist.length > 0;
  }

  /** The key for {@code path} (one char per byte); {@code path} must not be empty. */
  String key(String path) {
    return alias(clean(path));
  }

  /** Collapses doubled slashes and drops one trailing slash. */
  static String clean(String path) {
    String key = path;
    if (key.contains("//")) {
      StringBuilder b = new StringBuilder(key.length());
      for (int i = 0; i < key.length(); i++) {
        char c = key.charAt(i);
        if (c != '/' || b.length() == 0 || b.charAt(b.length() - 1) != '/') {
          b.append(c);
        }
      }
      key = b.toString();
    }
    if (key.length() > 1 && key.charAt(key.length() - 1) == '/') {
      key = key.substring(0, key.length() - 1);
    }
    return key;
  }

  /** Applies the aliases to a clean key. */
  String alias(String key) {
    String aliased = substitute(local, key);
    if (aliased != null) {
      String again = substitute(dist, aliased);
      return again != null ? again : aliased;
    }
    aliased = substitute(dist, key);
    return aliased != null ? aliased : key;
  }

  /**
   * What the keys of a directory's children start with: {@link #alias} of the directory's clean
   * path, but with aliases whose source is "/" ignored. Such an alias only ever matches the key
   * "/" itself: it aliases the root directory (or a directory that a {@code .subs} alias turned
   * into "/"), never a path beneath it. Unless the child's name ends some alias's source (see
   * {@link #mayAliasChild}), the child's key is this, a '/' (none after "/") and the name.
   */
  String aliasForChildren(String key) {
    String aliased = substitute(local, key, true);
    if (aliased != null) {
      String again = substitute(dist, aliased, true);
      return again != null ? again : aliased;
    }
    aliased = substitute(dist, key, true);
    return aliased != null ? aliased : key;
  }

  private static String substitute(PathAlias[] aliases, String key) {
    return substitute(aliases, key, false);
  }

  private static String substitute(PathAlias[] aliases, String key, boolean skipRootSource) {
    for (PathAlias alias : aliases) {
      String src = alias.alias();
      if (skipRootSource && src.equals("/")) {
        continue;
      }
      if (key.startsWith(src) && (key.length() == src.length() || key.charAt(src.length()) == '/')) {
        int cut = key.length() > src.length() && alias.target().equals("/") ? src.length() + 1 : src.length();
        return alias.target() + key.substring(cut);
      }
    }
    return null;
  }

  /**
   * Whether {@code name} (one path component: not empty, no '/'), as the last component of a key,
   * is the last component of some alias's source. Only then can a child's key be aliased
   * differently from its parent directory's key. Asked for every entry a walk meets: a length
   * test, then for the few names of a length some alias ends with, one set lookup.
   */
  boolean mayAliasChild(String name) {
    return (lastComponentLengths & 1L << lengthBit(name)) != 0 && lastComponents.contains(name);
  }

  /** Which bit of {@link #lastComponentLengths} a component's length sets. */
  private static int lengthBit(String component) {
    return Math.min(component.length(), 63);
  }
}
