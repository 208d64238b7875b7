package dev.relabel.match;

import dev.relabel.policy.Policy;
import java.nio.ByteBuffer;

/**
 * The matcher's section of a compiled policy: libselinux's search order of the specs and the
 * prefix index over it, which building took most of a short run's matcher start (sorting and
 * cutting the prefixes of every spec). Layout (big-endian): {@value #FORMAT}, the spec count, the
 * index in the policy's specs of the spec at each rank, then the {@link PrefixIndex}.
 */
final class MatcherImage {
  /** Bumped at every change of the layout or of what it means. */
  private static final int FORMAT = 1;

  private final int[] specAtRank;
  private final PrefixIndex index;

  private MatcherImage(int[] specAtRank, PrefixIndex index) {
    this.specAtRank = specAtRank;
    this.index = index;
  }

  int[] specAtRank() {
    return specAtRank;
  }

  PrefixIndex index() {
    return index;
  }

  static byte[] write(int[] specAtRank, PrefixIndex index) {
    ByteBuffer out = ByteBuffer.allocate(8 + 4 * specAtRank.length + index.storedSize());
    out.putInt(FORMAT);
    out.putInt(specAtRank.length);
    for (int spec : specAtRank) {
      out.putInt(spec);
    }
    index.writeTo(out);
    return out.array();
  }

  /**
   * The search order and index {@code policy}'s compiled policy holds; null when it holds none
   * (a text load), or one of another layout or that does not fit the policy's specs (then the
   * matcher builds its own: a stored section is a shortcut, never the only way).
   */
  static MatcherImage read(Policy policy) {
    ByteBuffer in = policy.matcherSection().orElse(null);
    if (in == null || in.remaining() < 8 || in.getInt() != FORMAT) {
      return null;
    }
    int count = in.getInt();
    if (count != policy.specs().size() || (long) count * 4 > in.remaining()) {
      return null;
    }
    int[] specAtRank = new int[count];
    in.asIntBuffer().get(specAtRank);
    in.position(in.position() + 4 * count);
    PrefixIndex index;
    try {
      index = PrefixIndex.readFrom(in, count);
    } catch (RuntimeException truncated) {
      return null;
    }
    return index == null || in.hasRemaining() ? null : new MatcherImage(specAtRank, index);
  }
}
