package dev.relabel.bench;

import dev.relabel.bench.tree.TreeGenerator;
import dev.relabel.policy.FileType;
import dev.relabel.walk.FileTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link FileTree} held in memory, labels in a field per entry: the walker's scheduling, matching
 * and label decisions with no system call under them, so that a benchmark of a walk over it shows
 * the engine's own cost and how it scales with threads. The shape is fixed at construction (from
 * {@link TreeGenerator}); only labels change, each entry's by the one worker that visits it.
 */
public final class MemoryFileTree implements FileTree {
  /** An entry; a directory has its listing and its children by name (one char per byte). */
  static final class Node {
    final FileType type;
    final long inode;
    final List<Entry> listing = new ArrayList<>();
    final Map<String, Node> children = new HashMap<>();
    volatile byte[] label;

    Node(FileType type, long inode) {
      this.type = type;
      this.inode = inode;
    }
  }

  private final Node root = new Node(FileType.DIRECTORY, 1);
  private final int size;

  private MemoryFileTree(List<TreeGenerator.Node> plan) {
    long inode = 2;
    for (TreeGenerator.Node planned : plan) {
      int slash = planned.path().lastIndexOf('/');
      Node parent = slash < 0 ? root : find(planned.path().substring(0, slash));
      String name = planned.path().substring(slash + 1);
      FileType type = switch (planned.kind()) {
        case DIRECTORY -> FileType.DIRECTORY;
        case FILE -> FileType.REGULAR_FILE;
        case SYMLINK -> FileType.SYMLINK;
      };
      Node node = new Node(type, inode++);
      parent.children.put(name, node);
      parent.listing.add(new Entry(name.getBytes(StandardCharsets.ISO_8859_1), type));
    }
    this.size = plan.size() + 1;
  }

  /** The tree of a {@link TreeGenerator} plan, rooted at "/". */
  public static MemoryFileTree of(List<TreeGenerator.Node> plan) {
    return new MemoryFileTree(plan);
  }

  /** Entries, the root included. */
  public int size() {
    return size;
  }

  /** The label of the entry at {@code path} (relative to the root, "" for the root), or null. */
  public byte[] labelOf(String path) {
    return path.isEmpty() ? root.label : find(path).label;
  }

  /** Gives every entry {@code label}. */
  public void labelAll(byte[] label) {
    labelAll(root, label);
  }

  private static void labelAll(Node node, byte[] label) {
    node.label = label;
    node.children.values().forEach(child -> labelAll(child, label));
  }

  private Node find(String relative) {
    Node node = root;
    for (String part : relative.split("/")) {
      node = node.children.get(part);
      if (node == null) {
        throw new IllegalArgumentException("no such entry: " + relative);
      }
    }
    return node;
  }

  @Override
  public Directory open(byte[] path) throws IOException {
    String text = new String(path, StandardCharsets.ISO_8859_1);
    Node node = text.equals("/") ? root : find(text.substring(1));
    if (node.type != FileType.DIRECTORY) {
      throw new IOException("not a directory: " + text);
    }
    return new MemoryDirectory(node);
  }

  private static final class MemoryDirectory implements Directory {
    private final Node node;

    MemoryDirectory(Node node) {
      this.node = node;
    }

    private Node entry(byte[] name, byte[] path) throws IOException {
      if (name.length == 0) {
        return node;
      }
      Node child = node.children.get(new String(name, StandardCharsets.ISO_8859_1));
      if (child == null) {
        throw new IOException("no such entry: " + new String(path, StandardCharsets.ISO_8859_1));
      }
      return child;
    }

    @Override
    public List<Entry> entries() {
      return node.listing;
    }

    @Override
    public Directory openChild(byte[] name, byte[] pathForErrors) throws IOException {
      Node child = entry(name, pathForErrors);
      if (child.type != FileType.DIRECTORY) {
        throw new IOException("not a directory: " + new String(pathForErrors, StandardCharsets.ISO_8859_1));
      }
      return new MemoryDirectory(child);
    }

    @Override
    public Status status(byte[] name, byte[] pathForErrors) throws IOException {
      Node child = entry(name, pathForErrors);
      return new Status(child.type, 1, child.inode, 1);
    }

    @Override
    public byte[] label(byte[] name, byte[] pathForErrors) throws IOException {
      return entry(name, pathForErrors).label;
    }

    @Override
    public void setLabel(byte[] name, byte[] label, byte[] pathForErrors) throws IOException {
      entry(name, pathForErrors).label = label;
    }

    @Override
    public void close() {
      // Nothing to release.
    }
  }
}
