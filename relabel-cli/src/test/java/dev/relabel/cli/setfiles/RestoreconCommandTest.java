package dev.relabel.cli.setfiles;

import dev.relabel.cli.Trees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code relabel restorecon}'s own rules, where no oracle is needed or where ours differs from
 * Debian's on purpose: usage errors and refused flags exit 255 as restorecon's usage() does, flags
 * restorecon 3.4 does not have are unknown, -D/-I are accepted, PATHs are not mixed with -f, and
 * (unlike Debian's, which exits at once when SELinux is disabled) it labels on this machine.
 * {@link RestoreconDifferentialTest} compares the rest with the real restorecon.
 */
class RestoreconCommandTest {
  @TempDir
  Path dir;

  private static Run restorecon(String... args) {
    List<String> command = Trees.list("restorecon");
    command.addAll(List.of(args));
    return Trees.relabel(command);
  }

  @Test
  void noArgumentsIsRestoreconsUsageErrorButAnOptionAloneDoesNothing() {
    Run none = restorecon();
    assertEquals(255, none.status(), none::toString);
    assertTrue(none.err().startsWith("relabel: Missing required parameter: 'PATH'"), none::toString);
    Run verboseOnly = restorecon("-v");
    assertEquals(0, verboseOnly.status(), verboseOnly::toString);
    assertEquals("", verboseOnly.out() + verboseOnly.err());
  }

  @ParameterizedTest
  @ValueSource(strings = {"-U", "-j", "-c", "-C", "-d", "-A", "-E"})
  void flagsRestorecon34DoesNotHaveAreUnknown(String flag) {
    Run run = restorecon(flag, "/nonexistent");
    assertEquals(255, run.status(), run::toString);
    assertTrue(run.err().startsWith("relabel: Unknown option: '" + flag + "'"), run::toString);
  }

  @ParameterizedTest
  @ValueSource(strings = {"-l"})
  void flagsTheEngineCannotHonourAreRefused(String flag) {
    Run run = restorecon(flag, "/nonexistent");
    assertEquals(255, run.status(), run::toString);
    assertTrue(run.err().contains(flag + " (") && run.err().contains("is not supported"), run::toString);
  }

  @Test
  void progressAndVerboseAreMutuallyExclusiveAsInRestorecon() {
    Run run = restorecon("-p", "-v", "/nonexistent");
    assertEquals(255, run.status(), run::toString);
    assertTrue(run.err().contains("-p and -v are mutually exclusive"), run::toString);
  }

  @Test
  void pathsWithAListFileAreAnError() throws Exception {
    Path list = Files.writeString(dir.resolve("list"), dir + "\n");
    Run run = restorecon("-f", list.toString(), dir.toString());
    assertEquals(255, run.status(), run::toString);
    assertTrue(run.err().contains("PATH arguments cannot be mixed with -f or -s"), run::toString);
  }

  @Test
  void labelsEvenWhereSelinuxIsDisabledAndAcceptsDigestFlags() throws Exception {
    AttrTrees.requireTools(true);
    // Debian's policy gives /srv/.* var_t; a temp dir would be <<none>> (/tmp/.*).
    Path srv = Files.createTempDirectory(Path.of("/srv"), "relabel-test-");
    try {
      Path file = Files.writeString(srv.resolve("file"), "");
      AttrTrees.setLabel(file, "system_u:object_r:etc_t:s0", dir);
      Run run = restorecon("-D", "-I", "-F", "-v", file.toString());
      assertEquals(0, run.status(), run::toString);
      assertEquals("Relabeled " + file + " from system_u:object_r:etc_t:s0 to system_u:object_r:var_t:s0\n",
          run.out());
      assertEquals("system_u:object_r:var_t:s0", AttrTrees.label(file, dir));
    } finally {
      AttrTrees.check(List.of("rm", "-rf", "--", srv.toString()), dir);
    }
  }

  @Test
  void aPathThePolicyLeavesAloneIsWarnedAbout() throws Exception {
    AttrTrees.requireTools(true);
    Path file = Files.writeString(dir.resolve("file"), "");
    Run run = restorecon("-v", file.toString());
    assertEquals(0, run.status(), run::toString);
    assertEquals("Warning no default label for " + file.toRealPath() + "\n", run.out(), "/tmp/.* is <<none>>");
    assertEquals(null, AttrTrees.label(file, dir));
  }

  @Test
  void aMissingPathIsStatus255AndIgnoredWithDashI() {
    Run missing = restorecon("/nonexistent-relabel-path");
    assertEquals(255, missing.status(), missing::toString);
    assertEquals("relabel: lstat(/nonexistent-relabel-path) failed: No such file or directory\n", missing.err());
    Run ignored = restorecon("-i", "/nonexistent-relabel-path");
    assertEquals(0, ignored.status(), ignored::toString);
  }
}
