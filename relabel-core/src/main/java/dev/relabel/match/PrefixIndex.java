package dev.relabel.match;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * A character trie over the specs' required prefixes. Walking a key down it visits exactly the
 * specs whose prefix the key starts with; each node's specs are kept in rank order.
 *
 * <p>The trie is four flat arrays, so that a compiled policy can store it and a start read it back
 * in one copy instead of building it (see {@link MatcherImage}). Nodes are numbered breadth first
 * from the root, {@value #ROOT}: the children of node {@code n} are then one run of numbers,
 * {@code childStart[n]} to {@code childStart[n + 1] - 1}, sorted by the character on the edge into
 * each ({@code labels}), and its specs one run of {@code ranks}, from {@code rankStart[n]} to
 * {@code rankStart[n + 1] - 1}. Built once, never changed: any number of threads may walk it.
 */
final class PrefixIndex {
  /** The root node: the empty prefix. */
  static final int ROOT = 0;
  /** No node: the walk fell off the trie. */
  static final int NONE = -1;

  private final char[] labels;
  private final int[] childStart;
  private final int[] rankStart;
  private final int[] ranks;
  private final int maxLists;

  private PrefixIndex(char[] labels, int[] childStart, int[] rankStart, int[] ranks, int maxLists) {
    this.labels = labels;
    this.childStart = childStart;
    this.rankStart = rankStart;
    this.ranks = ranks;
    this.maxLists = maxLists;
  }

  /**
   * The trie over {@code prefixByRank[rank]}. The prefixes are sorted (ties by rank), so that the
   * specs under any node are one run of the sorted order, those whose prefix ends at the node
   * first; each node is then cut from its run breadth first, by the character at its depth.
   */
  static PrefixIndex build(String[] prefixByRank) {
    int count = prefixByRank.length;
    Integer[] boxed = new Integer[count];
    for (int rank = 0; rank < count; rank++) {
      boxed[rank] = rank;
    }
    Arrays.sort(boxed, new ByPrefixThenRank(prefixByRank));
    String[] sortedPrefix = new String[count];
    int[] sortedRank = new int[count];
    for (int i = 0; i < count; i++) {
      sortedRank[i] = boxed[i];
      sortedPrefix[i] = prefixByRank[sortedRank[i]];
    }
    // Per node, in number order: its run [from, to) of the sorted specs, its depth (the length of
    // the prefix its run shares), and how many ranked nodes lie on the path down to its parent.
    int capacity = Math.max(16, count);
    char[] labels = new char[capacity];
    int[] from = new int[capacity];
    int[] to = new int[capacity];
    int[] depths = new int[capacity];
    int[] rankedAbove = new int[capacity];
    int[] childStart = new int[capacity + 1];
    int[] rankStart = new int[capacity + 1];
    int[] ranks = new int[count];
    int nodes = 1;
    from[ROOT] = 0;
    to[ROOT] = count;
    int rankCount = 0;
    int maxLists = 0;
    for (int node = 0; node < nodes; node++) {
      int depth = depths[node];
      int at = from[node];
      int end = to[node];
      rankStart[node] = rankCount;
      while (at < end && sortedPrefix[at].length() == depth) {
        ranks[rankCount++] = sortedRank[at++];
      }
      int ranked = rankedAbove[node] + (rankCount > rankStart[node] ? 1 : 0);
      maxLists = Math.max(maxLists, ranked);
      childStart[node] = nodes;
      while (at < end) {
        char label = sortedPrefix[at].charAt(depth);
        int runEnd = at + 1;
        while (runEnd < end && sortedPrefix[runEnd].charAt(depth) == label) {
          runEnd++;
        }
        if (nodes == labels.length) {
          int grown = labels.length * 2;
          labels = Arrays.copyOf(labels, grown);
          from = Arrays.copyOf(from, grown);
          to = Arrays.copyOf(to, grown);
          depths = Arrays.copyOf(depths, grown);
          rankedAbove = Arrays.copyOf(rankedAbove, grown);
          childStart = Arrays.copyOf(childStart, grown + 1);
          rankStart = Arrays.copyOf(rankStart, grown + 1);
        }
        labels[nodes] = label;
        from[nodes] = at;
        to[nodes] = runEnd;
        depths[nodes] = depth + 1;
        rankedAbove[nodes] = ranked;
        nodes++;
        at = runEnd;
      }
    }
    childStart[nodes] = nodes;
    rankStart[nodes] = rankCount;
    return new PrefixIndex(Arrays.copyOf(labels, nodes), Arrays.copyOf(childStart, nodes + 1),
        Arrays.copyOf(rankStart, nodes + 1), ranks, Math.max(1, maxLists));
  }

  /** Ranks by their prefix, then by rank; a class rather than lambdas, which a start would link. */
  private static final class ByPrefixThenRank implements Comparator<Integer> {
    private final String[] prefixByRank;

    ByPrefixThenRank(String[] prefixByRank) {
      this.prefixByRank = prefixByRank;
    }

    @Override
    public int compare(Integer a, Integer b) {
      int byPrefix = prefixByRank[a].compareTo(prefixByRank[b]);
      return byPrefix != 0 ? byPrefix : Integer.compare(a, b);
    }
  }

  /** The trie stored by {@link #writeTo}, read back; null when {@code in} does not hold one whole. */
  static PrefixIndex readFrom(ByteBuffer in, int specCount) {
    int nodes = in.getInt();
    if (nodes < 1 || nodes > in.remaining()) {
      return null;
    }
    char[] labels = new char[nodes];
    int[] childStart = new int[nodes + 1];
    int[] rankStart = new int[nodes + 1];
    int[] ranks = new int[specCount];
    in.asCharBuffer().get(labels);
    in.position(in.position() + 2 * nodes);
    in.asIntBuffer().get(childStart);
    in.position(in.position() + 4 * (nodes + 1));
    in.asIntBuffer().get(rankStart);
    in.position(in.position() + 4 * (nodes + 1));
    in.asIntBuffer().get(ranks);
    in.position(in.position() + 4 * specCount);
    int maxLists = in.getInt();
    // Node by node it is not checked (a millisecond of every start): the compiled policy's
    // checksum has shown these are the arrays a relabel wrote.
    boolean whole = childStart[0] == 1 && childStart[nodes] == nodes && rankStart[0] == 0
        && rankStart[nodes] == specCount && maxLists >= 1;
    return whole ? new PrefixIndex(labels, childStart, rankStart, ranks, maxLists) : null;
  }

  /** Stores the trie for {@link #readFrom}. */
  void writeTo(ByteBuffer out) {
    out.putInt(labels.length);
    for (char label : labels) {
      out.putChar(label);
    }
    for (int start : childStart) {
      out.putInt(start);
    }
    for (int start : rankStart) {
      out.putInt(start);
    }
    for (int rank : ranks) {
      out.putInt(rank);
    }
    out.putInt(maxLists);
  }

  /** How many bytes {@link #writeTo} writes. */
  int storedSize() {
    return 4 + 2 * labels.length + 4 * (childStart.length + rankStart.length + ranks.length) + 4;
  }

  /** Whether {@code other} is the same trie: the same arrays. */
  @Override
  public boolean equals(Object other) {
    return other instanceof PrefixIndex that && maxLists == that.maxLists && Arrays.equals(labels, that.labels)
        && Arrays.equals(childStart, that.childStart) && Arrays.equals(rankStart, that.rankStart)
        && Arrays.equals(ranks, that.ranks);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(ranks) * 31 + labels.length;
  }

  /** The child of {@code node} along {@code label}, or {@link #NONE}. */
  int child(int node, char label) {
    int low = childStart[node];
    int high = childStart[node + 1] - 1;
    if (high - low < 8) {
      for (int child = low; child <= high; child++) {
        if (labels[child] == label) {
          return child;
        }
      }
      return NONE;
    }
    while (low <= high) {
      int middle = (low + high) >>> 1;
      char found = labels[middle];
      if (found < label) {
        low = middle + 1;
      } else if (found > label) {
        high = middle - 1;
      } else {
        return middle;
      }
    }
    return NONE;
  }

  /** Whether specs' prefixes end at {@code node}. */
  boolean hasRanks(int node) {
    return rankStart[node] < rankStart[node + 1];
  }

  /**
   * The ranks of the specs whose prefix ends at {@code node}, as a run of {@link #ranks()}: the
   * start in the high 32 bits, the end in the low ones (what {@link RankMerge} takes).
   */
  long rankRun(int node) {
    return ((long) rankStart[node] << 32) | rankStart[node + 1];
  }

  /** Every node's ranks, one run a node (see {@link #rankRun}). */
  int[] ranks() {
    return ranks;
  }

  /** The node for the string {@code prefix}, or {@link #NONE} when no spec's prefix starts with it. */
  int find(String prefix) {
    int node = ROOT;
    for (int i = 0; i < prefix.length() && node != NONE; i++) {
      node = child(node, prefix.charAt(i));
    }
    return node;
  }

  /** The most rank runs one walk can meet: the most ranked nodes on one branch. */
  int maxLists() {
    return maxLists;
  }

  /**
   * Walks {@code key} from index {@code from}, starting below {@code start} (whose own ranks are
   * not taken), and appends to {@code runs} the {@link #rankRun} of every ranked node met. Returns
   * the new count of runs.
   */
  int collect(int start, String key, int from, long[] runs, int count) {
    int node = start;
    for (int i = from; i < key.length(); i++) {
      node = child(node, key.charAt(i));
      if (node == NONE) {
        break;
      }
      if (rankStart[node] < rankStart[node + 1]) {
        runs[count++] = rankRun(node);
      }
    }
    return count;
  }

  /** The ranks, in order, of every spec whose required prefix starts with {@code node}'s string. */
  int[] subtree(int node) {
    IntStream.Builder found = IntStream.builder();
    addSubtree(node, found);
    return found.build().sorted().toArray();
  }

  /** The ranks of every spec whose required prefix strictly extends {@code node}'s string. */
  int[] below(int node) {
    IntStream.Builder found = IntStream.builder();
    for (int child = childStart[node]; child < childStart[node + 1]; child++) {
      addSubtree(child, found);
    }
    return found.build().toArray();
  }

  private void addSubtree(int node, IntStream.Builder found) {
    for (int i = rankStart[node]; i < rankStart[node + 1]; i++) {
      found.add(ranks[i]);
    }
    for (int child = childStart[node]; child < childStart[node + 1]; child++) {
      addSubtree(child, found);
    }
  }
}
