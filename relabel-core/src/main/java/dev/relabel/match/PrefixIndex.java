package dev.relabel.match;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * A character trie over the specs' required prefixes. Walking a key down it visits exactly the
 * specs whose prefix the key starts with; each node's specs are kept in rank order.
 */
final class PrefixIndex {
  private static final int[] NONE = new int[0];

  private static final class Node {
    char[] labels = new char[0];
    Node[] children = new Node[0];
    int[] ranks = NONE;
  }

  private final Node root;

  PrefixIndex(CompiledSpec[] byRank) {
    TreeMap<String, List<Integer>> byPrefix = new TreeMap<>();
    for (CompiledSpec spec : byRank) {
      byPrefix.computeIfAbsent(spec.requiredPrefix, k -> new ArrayList<>()).add(spec.rank);
    }
    root = new Node();
    byPrefix.forEach((prefix, ranks) -> {
      Node node = root;
      for (int i = 0; i < prefix.length(); i++) {
        node = child(node, prefix.charAt(i));
      }
      node.ranks = ranks.stream().mapToInt(Integer::intValue).sorted().toArray();
    });
  }

  private static Node child(Node node, char label) {
    int at = Arrays.binarySearch(node.labels, label);
    if (at >= 0) {
      return node.children[at];
    }
    int insert = -at - 1;
    char[] labels = new char[node.labels.length + 1];
    Node[] children = new Node[labels.length];
    System.arraycopy(node.labels, 0, labels, 0, insert);
    System.arraycopy(node.children, 0, children, 0, insert);
    labels[insert] = label;
    children[insert] = new Node();
    System.arraycopy(node.labels, insert, labels, insert + 1, node.labels.length - insert);
    System.arraycopy(node.children, insert, children, insert + 1, node.children.length - insert);
    node.labels = labels;
    node.children = children;
    return children[insert];
  }

  /**
   * The rank lists of every spec whose required prefix {@code key} starts with, shortest prefix
   * first; {@code out} receives them and the count is returned.
   */
  int collect(String key, int[][] out) {
    int count = 0;
    Node node = root;
    if (node.ranks.length > 0) {
      out[count++] = node.ranks;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      char[] labels = node.labels;
      Node next = null;
      if (labels.length <= 8) {
        for (int j = 0; j < labels.length; j++) {
          if (labels[j] == c) {
            next = node.children[j];
            break;
          }
        }
      } else {
        int at = Arrays.binarySearch(labels, c);
        next = at >= 0 ? node.children[at] : null;
      }
      if (next == null) {
        break;
      }
      node = next;
      if (node.ranks.length > 0) {
        out[count++] = node.ranks;
      }
    }
    return count;
  }

  /** The most rank lists {@link #collect} can return: the most ranked nodes on one branch. */
  int maxLists() {
    return rankedDepth(root);
  }

  private static int rankedDepth(Node node) {
    int max = 0;
    for (Node child : node.children) {
      max = Math.max(max, rankedDepth(child));
    }
    return max + (node.ranks.length > 0 ? 1 : 0);
  }
}
