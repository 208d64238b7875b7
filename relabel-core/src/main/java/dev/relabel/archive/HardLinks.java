package dev.relabel.archive;

import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.FileType;
import dev.relabel.report.LinkConflicts;
import dev.relabel.report.RelabelListener;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The hard links of an archive: each inode (the member that holds the data) with every name that
 * links to it, learnt by a first pass over the headers. Only linked names are kept, so memory
 * grows with the hard links, not with the archive. A name belongs to its inode from its member on
 * until a later member takes the name (GNU tar, extracting, unlinks the name and makes a new file
 * or a link to another inode: an archive appended to with {@code tar -r} can do it), so a name is
 * looked up with its member's offset. The label of an inode is decided as relabel's setfiles
 * decides it on the extracted tree: the smallest of the names it keeps to the end (byte order)
 * that the policy gives a context, with setfiles' warning for each other such name whose context
 * differs ({@link LinkConflicts}).
 */
final class HardLinks {
  /** One inode: the names it keeps, and once decided its label (null: each name keeps its own). */
  static final class Group {
    private final List<byte[]> names = new ArrayList<>(2);
    private boolean decided;
    private String context;

    /** The context every name gets, or null when every name keeps the label it has. */
    String context() {
      return context;
    }
  }

  /**
   * A name's tie to a group: the members named so whose offset lies in [from, until) are the
   * group's (the data holder, or a link). Members named so before the first link (replaced before
   * it was made) fall in too: they are gone from the extracted tree, so their label is moot.
   */
  private static final class Binding {
    final Group group;
    final byte[] name;
    final long from;
    long until = Long.MAX_VALUE;

    Binding(Group group, byte[] name, long from) {
      this.group = group;
      this.name = name;
      this.from = from;
    }
  }

  /** Each linked name's bindings, oldest first; the name one char per byte. */
  private final Map<String, List<Binding>> byName;

  private HardLinks(Map<String, List<Binding>> byName) {
    this.byName = byName;
  }

  /**
   * Hard links known beforehand: each group's names, its target (the name that holds the data)
   * first, as a walk that writes the archive met them (each name once).
   */
  static HardLinks of(List<List<byte[]>> groups) {
    Map<String, List<Binding>> byName = new HashMap<>();
    for (List<byte[]> names : groups) {
      Group group = new Group();
      for (byte[] name : names) {
        group.names.add(name);
        byName.put(latin1(name), new ArrayList<>(List.of(new Binding(group, name, 0))));
      }
    }
    return new HardLinks(byName);
  }

  /** Reads every header of {@code tar} (skipping data) and collects its hard links. */
  static HardLinks scan(InputStream tar) throws IOException {
    Map<String, List<Binding>> byName = new HashMap<>();
    try (tar) {
      TarReader reader = new TarReader(tar);
      for (TarMember member = reader.next(); member != null; member = reader.next()) {
        if (!member.labelled()) {
          continue;
        }
        // Whatever this member is, extracting it takes its name from the inode that had it.
        Binding replaced = current(byName, latin1(member.path()));
        if (replaced != null) {
          replaced.until = member.offset();
          replaced.group.names.remove(replaced.name);
        }
        if (member.isHardLink()) {
          String target = latin1(member.linkTarget());
          Binding holder = current(byName, target);
          if (holder == null) {
            List<Binding> earlier = byName.computeIfAbsent(target, k -> new ArrayList<>(1));
            long from = earlier.isEmpty() ? 0 : earlier.get(earlier.size() - 1).until;
            holder = new Binding(new Group(), member.linkTarget(), from);
            holder.group.names.add(holder.name);
            earlier.add(holder);
          }
          Binding link = new Binding(holder.group, member.path(), member.offset());
          link.group.names.add(link.name);
          byName.computeIfAbsent(latin1(member.path()), k -> new ArrayList<>(1)).add(link);
        }
      }
    }
    return new HardLinks(byName);
  }

  /** The binding {@code name} holds now (while scanning), or null. */
  private static Binding current(Map<String, List<Binding>> byName, String name) {
    List<Binding> bindings = byName.get(name);
    if (bindings == null) {
      return null;
    }
    Binding last = bindings.get(bindings.size() - 1);
    return last.until == Long.MAX_VALUE ? last : null;
  }

  /**
   * The group {@code member} belongs to (by its name and offset), decided on first use with the
   * member's type; null when it is not hard-linked.
   */
  Group groupOf(TarMember member, LabelMatcher matcher, RelabelListener listener) {
    if (byName.isEmpty()) {
      return null;
    }
    List<Binding> bindings = byName.get(latin1(member.path()));
    if (bindings == null) {
      return null;
    }
    for (Binding binding : bindings) {
      if (member.offset() >= binding.from && member.offset() < binding.until) {
        Group group = binding.group;
        if (!group.decided) {
          decide(group, member.isHardLink() ? FileType.REGULAR_FILE : member.type(), matcher, listener);
        }
        return group;
      }
    }
    return null;
  }

  private static void decide(Group group, FileType type, LabelMatcher matcher, RelabelListener listener) {
    group.decided = true;
    List<byte[]> names = new ArrayList<>(group.names);
    names.sort(java.util.Arrays::compareUnsigned);
    List<String> contexts = new ArrayList<>(names.size());
    for (byte[] name : names) {
      Label label = matcher.lookup(name, type);
      String context = label.context().orElse(null);
      contexts.add(context);
      if (context != null && group.context == null) {
        group.context = context;
      }
    }
    LinkConflicts.report(names, contexts, listener);
  }

  private static String latin1(byte[] path) {
    return new String(path, StandardCharsets.ISO_8859_1);
  }
}
