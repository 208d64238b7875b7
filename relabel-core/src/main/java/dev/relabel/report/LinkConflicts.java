package dev.relabel.report;

import java.util.List;

/**
 * What setfiles reports for one inode met under several names whose specs differ (a hard-linked
 * file, or an entry a bind mount shows twice), as measured against Debian's setfiles: the first
 * name met decides the label; each later name whose spec gives another label is reported with that
 * label and the name reported before it (the deciding one for the first), so that four names of
 * four labels read as a chain, "b and a", "c and b", "d and c", not as "b, c, d and a". A name whose
 * spec gives the deciding label is not reported and does not move the chain on.
 */
public final class LinkConflicts {
  private LinkConflicts() {}

  /**
   * Reports the conflicts of one inode's {@code names}, in the order the rule meets them (relabel
   * takes them in byte order, at every thread count), each with its spec's context in {@code
   * contexts} (null: the policy gives that name none, and it is not counted). The first name with a
   * context decides.
   */
  public static void report(List<byte[]> names, List<String> contexts, RelabelListener listener) {
    String decided = null;
    byte[] previous = null;
    for (int i = 0; i < names.size(); i++) {
      String context = contexts.get(i);
      if (context == null) {
        continue;
      }
      if (decided == null) {
        decided = context;
        previous = names.get(i);
      } else if (!context.equals(decided)) {
        listener.conflicted(names.get(i), previous, decided);
        previous = names.get(i);
      }
    }
  }
}
