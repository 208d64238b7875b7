package dev.relabel.context;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.oracle.Oracles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ContextEdit} against coreutils' chcon (libselinux's {@code context_new},
 * {@code context_*_set}, {@code context_str}): for labels at the edges of what libselinux splits
 * (two to six colons, empty fields, trailing colons, blanks before and in the range) and values
 * each field may or may not hold, chcon's resulting label, or whether it failed, must be ours.
 */
class ContextEditDifferentialTest {
  private static final String CHCON = "/usr/bin/chcon";
  private static final List<String> LABELS = List.of(
      "u:r:t", "u:r:t:s0", "u:r:t:s0-s0:c0.c1023", "u:r:t:s0:c1-s0:c2", "u:r:t:s0:c1:x:y", "u:r:t:s0:a:b:c",
      "u:r", "u:r:", "u:r:t:", "::", ":::", "u::t", "u:r:t:s0 with blanks", "u r:r:t", "u:r:t t:s0", "u:r:t\ts0",
      "plain", "");
  private static final List<List<String>> EDITS = List.of(
      List.of("-t", "new_t"), List.of("-u", "new_u"), List.of("-r", "new_r"), List.of("-l", "s1"),
      List.of("-l", "s0 - s1:c2"), List.of("-t", ""), List.of("-u", "x", "-l", "s2"), List.of("-r", "a:b"),
      List.of("-t", "a b"), List.of("-l", "a\tb"), List.of("-u", "a b", "-t", "c:d"));

  @TempDir
  static Path dir;

  @BeforeAll
  static void tools() {
    AttrTrees.requireTools(false);
    if (!Files.isExecutable(Path.of(CHCON))) {
      if (Oracles.inCi()) {
        throw new AssertionError("CI=true and " + CHCON + " is missing (apt-get install coreutils)");
      }
      org.junit.jupiter.api.Assumptions.abort(CHCON + " is missing");
    }
  }

  @Test
  void sameResultsAsChcon() throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "");
    List<String> differences = new ArrayList<>();
    int compared = 0;
    for (String label : LABELS) {
      for (List<String> edit : EDITS) {
        AttrTrees.setLabel(file, label.isEmpty() ? "0x00" : label, dir);
        List<String> command = new ArrayList<>(List.of(CHCON));
        command.addAll(edit);
        command.add(file.toString());
        AttrTrees.Run chcon = AttrTrees.run(command, dir);
        String theirs = chcon.status() == 0 ? AttrTrees.label(file, dir) : "failed";
        ContextEdit.Outcome outcome = edit(edit).apply(label);
        String ours = outcome instanceof ContextEdit.Result result ? result.context() : "failed";
        compared++;
        if (!theirs.equals(ours)) {
          differences.add("'" + label + "' " + edit + ": chcon " + theirs + " (" + chcon.err().strip() + "), ours "
              + ours + " (" + outcome + ")");
        }
      }
    }
    assertEquals(LABELS.size() * EDITS.size(), compared);
    assertEquals(List.of(), differences);
  }

  private static ContextEdit edit(List<String> flags) {
    ContextEdit.Builder builder = ContextEdit.fields();
    for (int i = 0; i < flags.size(); i += 2) {
      String value = flags.get(i + 1);
      switch (flags.get(i)) {
        case "-u" -> builder.user(value);
        case "-r" -> builder.role(value);
        case "-t" -> builder.type(value);
        case "-l" -> builder.range(value);
        default -> throw new IllegalArgumentException(flags.get(i));
      }
    }
    return builder.build();
  }
}
