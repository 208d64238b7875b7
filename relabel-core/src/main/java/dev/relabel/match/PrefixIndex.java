package dev.relabel.match;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A character trie over the specs' required prefixes. Walking a key down it visits exactly the
 * specs whose prefix the key starts with; each node's specs are kept in rank order. Built once,
 * never changed: any number of threads may walk it.
 */
final class PrefixIndex {
  private static final int[] NO_RANKS = new int[0];

  /** A trie node: the specs whose required prefix ends here, and the edges below. */
  static final class Node {
    private char[] labels = new char[0];
    private Node[] children = new Node[0];
    private int[] ranks = NO_RANKS;
    /** How many of {@code ranks} are used, while the index is built. */
    private int rankCount;

    /** The ranks of the specs whose required prefix is exactly this node's string. */
    int[] ranks() {
      return ranks;
    }

    private void addRank(int rank) {
      if (rankCount == ranks.length) {
        ranks = Arrays.copyOf(ranks, Math.max(2, rankCount * 2));
      }
      ranks[rankCount++] = rank;
    }

    /** The child along {@code label}, or null. */
    Node child(char label) {
      char[] l = labels;
      if (l.length <= 8) {
        for (int j = 0; j < l.length; j++) {
          if (l[j] == label) {
            return children[j];
          }
        }
        return null;
      }
      int at = Arrays.binarySearch(l, label);
      return at >= 0 ? children[at] : null;
    }
  }

  private final Node root;
  private final int maxLists;

  PrefixIndex(CompiledSpec[] byRank) {
    this(byRank, spec -> spec.requiredPrefix);
  }

  /** A trie over another prefix of each spec than the one lookups need. */
  PrefixIndex(CompiledSpec[] byRank, java.util.function.Function<CompiledSpec, String> prefixOf) {
    root = new Node();
    // Inserted in rank order, so that each node's ranks come out sorted.
    for (CompiledSpec spec : byRank) {
      String prefix = prefixOf.apply(spec);
      Node node = root;
      for (int i = 0; i < prefix.length(); i++) {
        node = insert(node, prefix.charAt(i));
      }
      node.addRank(spec.rank);
    }
    maxLists = Math.max(1, finish(root));
  }

  private static Node insert(Node node, char label) {
    Node existing = node.child(label);
    if (existing != null) {
      return existing;
    }
    int slot = -Arrays.binarySearch(node.labels, label) - 1;
    char[] labels = new char[node.labels.length + 1];
    Node[] children = new Node[labels.length];
    System.arraycopy(node.labels, 0, labels, 0, slot);
    System.arraycopy(node.children, 0, children, 0, slot);
    labels[slot] = label;
    children[slot] = new Node();
    System.arraycopy(node.labels, slot, labels, slot + 1, node.labels.length - slot);
    System.arraycopy(node.children, slot, children, slot + 1, node.children.length - slot);
    node.labels = labels;
    node.children = children;
    return children[slot];
  }

  /** Trims every node's ranks to their count; returns the most ranked nodes on one branch. */
  private static int finish(Node node) {
    int max = 0;
    for (Node child : node.children) {
      max = Math.max(max, finish(child));
    }
    if (node.rankCount != node.ranks.length) {
      node.ranks = Arrays.copyOf(node.ranks, node.rankCount);
    }
    return max + (node.rankCount > 0 ? 1 : 0);
  }

  Node root() {
    return root;
  }

  /** The node for the string {@code prefix}, or null when no spec's prefix starts with it. */
  Node find(String prefix) {
    Node node = root;
    for (int i = 0; i < prefix.length() && node != null; i++) {
      node = node.child(prefix.charAt(i));
    }
    return node;
  }

  /** The most rank lists one walk can meet: the most ranked nodes on one branch. */
  int maxLists() {
    return maxLists;
  }

  /**
   * Walks {@code key} from index {@code from}, starting below {@code start} (whose own ranks are
   * not taken), and appends to {@code lists} the rank list of every ranked node met. Returns the
   * new count of lists.
   */
  static int collect(Node start, String key, int from, int[][] lists, int count) {
    Node node = start;
    for (int i = from; i < key.length(); i++) {
      node = node.child(key.charAt(i));
      if (node == null) {
        break;
      }
      if (node.ranks.length > 0) {
        lists[count++] = node.ranks;
      }
    }
    return count;
  }

  /** The ranks, in order, of every spec whose required prefix starts with {@code node}'s string. */
  static int[] subtree(Node node) {
    List<int[]> lists = new ArrayList<>();
    subtree(node, lists);
    return lists.stream().flatMapToInt(Arrays::stream).sorted().toArray();
  }

  /** The ranks of every spec whose required prefix strictly extends {@code node}'s string. */
  static int[] below(Node node) {
    List<int[]> lists = new ArrayList<>();
    for (Node child : node.children) {
      subtree(child, lists);
    }
    return lists.stream().flatMapToInt(Arrays::stream).toArray();
  }

  private static void subtree(Node node, List<int[]> lists) {
    if (node.ranks.length > 0) {
      lists.add(node.ranks);
    }
    for (Node child : node.children) {
      subtree(child, lists);
    }
  }
}
