package dev.relabel.archive;

import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.FileType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The hard links of an archive: each target (the member that holds the data) with every name that
 * links to it, learnt by a first pass over the headers. Only linked names are kept, so memory
 * grows with the hard links, not with the archive. The label of an inode is decided as
 * relabel's setfiles decides it: the smallest of its names (byte order) that the policy gives a
 * context, with setfiles' warning for each other name whose context differs.
 */
final class HardLinks {
  /** One inode: its names, and once decided its label (null: each name keeps its own). */
  static final class Group {
    private final List<byte[]> names = new ArrayList<>(2);
    private boolean decided;
    private String context;

    /** The context every name gets, or null when every name keeps the label it has. */
    String context() {
      return context;
    }
  }

  /** Groups by every one of their names, one char per byte. */
  private final Map<String, Group> byName;

  private HardLinks(Map<String, Group> byName) {
    this.byName = byName;
  }

  /**
   * Hard links known beforehand: each group's names, its target (the name that holds the data)
   * first, as a walk that writes the archive met them.
   */
  static HardLinks of(List<List<byte[]>> groups) {
    Map<String, Group> byName = new HashMap<>();
    for (List<byte[]> names : groups) {
      Group group = new Group();
      for (byte[] name : names) {
        group.names.add(name);
        byName.put(latin1(name), group);
      }
    }
    return new HardLinks(byName);
  }

  /** Reads every header of {@code tar} (skipping data) and collects its hard links. */
  static HardLinks scan(InputStream tar) throws IOException {
    Map<String, Group> byName = new HashMap<>();
    try (tar) {
      TarReader reader = new TarReader(tar);
      for (TarMember member = reader.next(); member != null; member = reader.next()) {
        if (member.labelled() && member.isHardLink()) {
          String target = latin1(member.linkTarget());
          Group group = byName.get(target);
          if (group == null) {
            group = new Group();
            group.names.add(member.linkTarget());
            byName.put(target, group);
          }
          String name = latin1(member.path());
          if (!byName.containsKey(name)) {
            group.names.add(member.path());
            byName.put(name, group);
          }
        }
      }
    }
    return new HardLinks(byName);
  }

  /**
   * The group {@code member} belongs to (by its name, or for a link by its target), decided on
   * first use with the member's type; null when it is not hard-linked.
   */
  Group groupOf(TarMember member, LabelMatcher matcher, Consumer<String> warnings) {
    if (byName.isEmpty()) {
      return null;
    }
    Group group = byName.get(latin1(member.isHardLink() ? member.linkTarget() : member.path()));
    if (group != null && !group.decided) {
      decide(group, member.isHardLink() ? FileType.REGULAR_FILE : member.type(), matcher, warnings);
    }
    return group;
  }

  private static void decide(Group group, FileType type, LabelMatcher matcher, Consumer<String> warnings) {
    group.decided = true;
    byte[] smallest = null;
    List<byte[]> names = new ArrayList<>(group.names);
    names.sort(java.util.Arrays::compareUnsigned);
    List<String> contexts = new ArrayList<>(names.size());
    for (byte[] name : names) {
      Label label = matcher.lookup(name, type);
      String context = label.context().orElse(null);
      contexts.add(context);
      if (context != null && smallest == null) {
        smallest = name;
        group.context = context;
      }
    }
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i) != smallest && contexts.get(i) != null && !contexts.get(i).equals(group.context)) {
        warnings.accept("conflicting specifications for " + text(names.get(i)) + " and " + text(smallest)
            + ", using " + group.context + ".");
      }
    }
  }

  private static String latin1(byte[] path) {
    return new String(path, StandardCharsets.ISO_8859_1);
  }

  private static String text(byte[] path) {
    return new String(path, StandardCharsets.UTF_8);
  }
}
