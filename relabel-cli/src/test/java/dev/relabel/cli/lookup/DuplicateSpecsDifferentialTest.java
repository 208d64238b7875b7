package dev.relabel.cli.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.cli.Trees;
import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Duplicate specs (one regex twice, types that can apply to one file) against the real tools:
 * matchpathcon opens the policy without {@code SELABEL_OPT_VALIDATE}, so it takes such a policy
 * silently and the later spec wins, as {@code relabel lookup} must; setfiles validates it
 * ({@code nodups_specs}) and refuses it with status 1, one "Multiple same/different
 * specifications for REGEX" per pair, labelling nothing, as {@code relabel setfiles} must.
 * (restorecon does not validate either; it reads only the system policy, so it is not run here.)
 */
class DuplicateSpecsDifferentialTest {
  private static final Path MATCHPATHCON = Path.of("/usr/sbin/matchpathcon");
  private static final String A = "system_u:object_r:a_t:s0";
  private static final String B = "system_u:object_r:b_t:s0";
  /** The errors' kind and regex, in setfiles' words and in relabel's. */
  private static final Pattern DUPLICATE =
      Pattern.compile("Multiple (same|different) specifications for (\\S+?)\\.?(?: |$)", Pattern.MULTILINE);

  @TempDir
  static Path scratch;

  @BeforeAll
  static void requireTools() {
    AttrTrees.requireTools(true);
    if (!Files.isExecutable(MATCHPATHCON)) {
      AttrTrees.unavailable(MATCHPATHCON + " is missing (apt-get install selinux-utils)");
    }
  }

  /** Each policy's lines, '|' between them; TREE is replaced by the scratch tree's path. */
  @ParameterizedTest
  @ValueSource(strings = {
      "TREE/f  " + A + "|TREE/f  " + B, // different contexts
      "TREE/f  " + A + "|TREE/f  " + A, // the same context
      "TREE/f  " + A + "|TREE/f  --  " + B, // any and a type
      "TREE/f  --  " + A + "|TREE/f  " + B,
      "TREE/f  --  " + A + "|TREE/f  --  " + B,
      "TREE/f  --  " + A + "|TREE/f  -d  " + B, // types no file has both of: no duplicate
      "TREE(/.*)?  " + A + "|TREE/f  " + B + "|TREE(/.*)?  " + B + "|TREE(/.*)?  <<none>>", // three of one
      "TREE/f  " + A + "|TREE/f  " + A + "|TREE/f  " + B,
  })
  void lookupAnswersAsMatchpathconAndSetfilesRefusesAsSetfiles(String lines) throws Exception {
    Path tree = Files.createDirectories(scratch.resolve("tree" + Math.abs(lines.hashCode())));
    Path policy = scratch.resolve("file_contexts" + Math.abs(lines.hashCode()));
    Files.writeString(policy, lines.replace("TREE", tree.toString()).replace('|', '\n') + "\n");

    // Before f exists: matchpathcon without -m looks a path up as what lstat finds (any when
    // nothing), relabel lookup never looks at the disk.
    for (String type : List.of("", "file", "dir")) {
      List<String> flags = type.isEmpty() ? List.of() : List.of("-m", type);
      List<String> reference = Trees.list(MATCHPATHCON.toString());
      reference.addAll(flags);
      reference.addAll(List.of("-f", policy.toString(), tree + "/f"));
      List<String> ours = Trees.list("lookup");
      ours.addAll(flags);
      ours.addAll(List.of("-f", policy.toString(), tree + "/f"));
      Run matchpathcon = AttrTrees.run(reference, scratch);
      Run lookup = Trees.relabel(ours);
      assertEquals("", matchpathcon.err(), matchpathcon::toString);
      // matchpathcon says <<none>> both where no spec matches and where a <<none>> spec does.
      assertEquals(matchpathcon.out(), lookup.out().replace("\t<<nomatch>>", "\t<<none>>"), () -> type + "\n" + lookup);
      assertEquals("", lookup.err(), lookup::toString);
      // relabel lookup fails where no spec matches (<<nomatch>>); matchpathcon succeeds.
      assertEquals(lookup.out().contains("<<nomatch>>") ? 1 : matchpathcon.status(), lookup.status(), lookup::toString);
    }

    Files.writeString(tree.resolve("f"), "f");
    Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-v", policy.toString(), tree.toString()),
        scratch);
    String before = AttrTrees.label(tree.resolve("f"), scratch);
    Run ours = Trees.relabel(List.of("setfiles", "-v", policy.toString(), tree.toString()));
    assertEquals(duplicates(setfiles.err()), duplicates(ours.err()), () -> setfiles + "\n" + ours);
    if (duplicates(setfiles.err()).isEmpty()) {
      assertEquals(0, setfiles.status(), setfiles::toString);
      assertEquals(0, ours.status(), ours::toString);
    } else {
      assertEquals(1, setfiles.status(), setfiles::toString);
      assertEquals(1, ours.status(), ours::toString);
      assertEquals("", ours.out(), "nothing is labelled");
      assertEquals(before, AttrTrees.label(tree.resolve("f"), scratch));
    }
  }

  /** Each duplicate error's kind and regex, as often as it is reported, sorted. */
  private static List<String> duplicates(String err) {
    List<String> found = new ArrayList<>();
    Matcher m = DUPLICATE.matcher(err);
    while (m.find()) {
      found.add(m.group(1) + " " + m.group(2));
    }
    return found.stream().sorted().toList();
  }
}
