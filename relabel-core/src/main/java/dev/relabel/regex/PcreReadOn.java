package dev.relabel.regex;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a pattern relabel refuses as unsupported is one PCRE2 rejects as well, and then why: an
 * admin should learn that a policy is broken (in PCRE2's words; libselinux fails on it too)
 * rather than that relabel cannot run it. The translation stops at the first construct
 * java.util.regex cannot express; this reads on. The construct is replaced by a stand-in of the
 * same shape that relabel runs ({@link PcreSyntaxException.StandIn}), the limits of an exact
 * translation are let pass ({@link PcreWriter#readingOn}), and the pattern is translated again,
 * until it is read to its end or a construct has no stand-in. A syntax error met on the way is
 * PCRE2's, reported at its place in the original pattern; so is a call or condition that names a
 * group the whole pattern does not have ("reference to non-existent subpattern"), and a
 * conditional group with more alternatives than it may hold. Otherwise the first refusal stands.
 * Constructs that change how the rest reads or which groups exist (the x, n and J options, branch
 * resets) have no stand-in.
 */
final class PcreReadOn {
  private PcreReadOn() {}

  /** What to report for {@code pattern}, which the translation refused with {@code first}. */
  static PcreSyntaxException verdict(String pattern, PcreSyntaxException first) {
    String text = pattern;
    List<int[]> edits = new ArrayList<>(); // {start, removed, inserted}, each in the text it was made in
    List<Object> references = new ArrayList<>();
    List<Integer> referenceOffsets = new ArrayList<>();
    Map<Integer, Integer> branchLimits = new HashMap<>(); // earlier stand-ins keep their place: edits go left to right
    PcreSyntaxException refusal = first;
    PcreTranslator translator;
    while (true) {
      PcreSyntaxException.StandIn standIn = refusal.standIn();
      if (standIn == null || edits.size() > pattern.length()) {
        return first;
      }
      if (standIn.reference() != null) {
        references.add(standIn.reference());
        referenceOffsets.add(original(edits, standIn.start()));
      }
      if (standIn.maxBranches() > 0) {
        branchLimits.put(standIn.start(), standIn.maxBranches());
      }
      text = text.substring(0, standIn.start()) + standIn.text() + text.substring(standIn.end());
      edits.add(new int[] {standIn.start(), standIn.end() - standIn.start(), standIn.text().length()});
      try {
        translator = PcreTranslator.translated(text, true, branchLimits);
        break;
      } catch (PcreSyntaxException e) {
        if (!e.unsupported()) {
          return new PcreSyntaxException(e.problem(), original(edits, e.offset()));
        }
        refusal = e;
      }
    }
    for (int i = 0; i < references.size(); i++) {
      Object reference = references.get(i);
      boolean exists = reference instanceof Integer group ? group >= 1 && group <= translator.groups
          : translator.names.containsKey(reference);
      if (!exists) {
        return new PcreSyntaxException("reference to non-existent subpattern", referenceOffsets.get(i));
      }
    }
    return first;
  }

  /** Where {@code offset}, in the text after {@code edits}, was in the original pattern. */
  private static int original(List<int[]> edits, int offset) {
    for (int i = edits.size() - 1; i >= 0; i--) {
      int[] edit = edits.get(i);
      if (offset >= edit[0] + edit[2]) {
        offset += edit[1] - edit[2];
      } else if (offset > edit[0]) {
        offset = edit[0];
      }
    }
    return offset;
  }
}
