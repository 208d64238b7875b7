package dev.relabel.cli;

import dev.relabel.cli.common.ExitStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.Fixtures;
import dev.relabel.fixtures.PolicyMutator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A policy the loader refuses labels nothing: {@code relabel setfiles -F -r ROOT} with the fuzz
 * test's malformed policies ({@link PolicyMutator}, same seed as {@code PolicyFuzzTest}), each
 * after a first line {@code /.* CONTEXT} that would relabel every entry of the tree. For each
 * refused one: exit status 1, standard error nothing but {@code relabel: FILE:LINE: message}
 * lines, and every label of the real tree (read with getfattr) exactly as before. The policies
 * of the same stream that load are run too, and must change the tree: the check can see a change.
 */
class MalformedPolicyTest {
  private static final String OLD = "system_u:object_r:old_t:s0";
  private static final String CONTEXT = "system_u:object_r:fuzz_t:s0";
  private static final int REFUSED = 40;
  private static final int LOADED = 5;

  @TempDir static Path dir;
  private static Path root;

  @BeforeAll
  static void tree() throws Exception {
    AttrTrees.requireTools(false);
    root = Files.createDirectory(dir.resolve("root"));
    for (String d : List.of("etc", "usr/bin", "dev", "home/u/.ssh", "var/log", "run")) {
      Files.createDirectories(root.resolve(d));
    }
    for (String f : List.of("etc/passwd", "etc/shadow", "usr/bin/ls", "home/u/.ssh/id", "var/log/x.log.1", "run/initctl")) {
      Files.createFile(root.resolve(f));
    }
  }

  /** Gives every entry the OLD label again (after a policy that loaded changed them). */
  private static void labelOld() throws Exception {
    for (String entry : AttrTrees.entries(root, dir)) {
      AttrTrees.setLabel(entry.equals(".") ? root : root.resolve(entry), OLD, dir);
    }
  }

  @Test
  void aRefusedPolicyLabelsNothingAndSaysFileAndLine() throws Exception {
    labelOld();
    Map<String, String> before = AttrTrees.labels(root, dir);
    PolicyMutator mutator = new PolicyMutator(20261129L);
    Path policy = dir.resolve("file_contexts");
    Pattern errorLine = Pattern.compile("relabel: " + Pattern.quote(policy.toString()) + ":[1-9][0-9]*: [^\n]+");
    int refused = 0;
    int loaded = 0;
    for (int n = 0; refused < REFUSED || loaded < LOADED; n++) {
      byte[] mutated = mutator.next();
      ByteArrayOutputStream content = new ByteArrayOutputStream();
      content.writeBytes(("/.*\t" + CONTEXT + "\n").getBytes(StandardCharsets.US_ASCII));
      content.writeBytes(mutated);
      Files.write(policy, content.toByteArray());
      Cli.Result r = Cli.run("setfiles", "-F", "-r", root.toString(), policy.toString(), root.toString());
      String what = "case " + n + ": " + Fixtures.escape(mutated.length > 300 ? java.util.Arrays.copyOf(mutated, 300)
          : mutated) + "\n" + r;
      if (r.status() == 0) {
        if (loaded++ < LOADED) {
          assertNotEquals(before, AttrTrees.labels(root, dir), "a policy that loads relabels the tree: " + what);
          labelOld();
        }
        continue;
      }
      if (refused++ >= REFUSED) {
        continue;
      }
      assertEquals(ExitStatus.SETFILES_ERRORS, r.status(), what);
      assertEquals("", r.outLatin1(), what);
      assertTrue(!r.errLines().isEmpty(), what);
      for (String line : r.errLines()) {
        assertTrue(errorLine.matcher(line).matches(), "relabel: FILE:LINE: message, got: " + line + "\n" + what);
      }
      assertEquals(before, AttrTrees.labels(root, dir), "a refused policy changed labels: " + what);
    }
  }
}
