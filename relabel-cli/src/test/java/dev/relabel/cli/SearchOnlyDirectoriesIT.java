package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file in a directory its user may search but not read (mode 0100 or 0300, as a non-root user
 * meets it: run here as root without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, through setpriv's
 * bounding set) is labelled as chcon and setfiles label it: they name it by its path, which needs
 * search permission only. relabel opened the directory for reading, and said Permission denied;
 * and it did not follow a symlink to that directory ({@code ld/f}: Not a directory). A process is
 * needed, to drop the capabilities.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SearchOnlyDirectoriesIT {
  private static Path launcher;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    launcher = LauncherScript.launcher("SearchOnlyDirectoriesIT");
    AttrTrees.requireTools(true);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0100", "0300"})
  void aFileInASearchOnlyDirectoryIsLabelledAsTheReferenceLabelsIt(String mode) throws Exception {
    Files.writeString(dir.resolve("file_contexts"), dir.resolve("t") + "(/.*)?\tsystem_u:object_r:new_t:s0\n");
    String[] cases = {
        "$TOOL -v system_u:object_r:b_t:s0 d/f d/e/g",
        "$TOOL -v -R -t c_t d/f d/e",
        "$TOOL -v \"$FC\" \"$T/d/f\" \"$T/d/e\"",
        // Beneath a symlink to the directory: the path's directory part is resolved as any path's.
        "ln -s d ld && $TOOL -v system_u:object_r:b_t:s0 ld/f ld/e/g",
        "ln -s d ld && $TOOL -v \"$FC\" \"$T/ld/f\" \"$T/ld/e/g\""};
    for (String command : cases) {
      String tool = command.contains("$FC") ? "setfiles" : "chcon";
      String expected = run(mode, command, tool);
      String actual = run(mode, command, launcher + " " + tool);
      assertEquals(expected, actual, "mode " + mode + ": " + command);
    }
  }

  /** Runs {@code command} without the DAC capabilities in a new tree: status, output, then every label. */
  private String run(String mode, String command, String tool) throws Exception {
    String script = "set -u\nrm -rf \"$T\" && mkdir -p \"$T/d/e\" && touch \"$T/d/f\" \"$T/d/e/g\"\n"
        + "setfattr -h -n security.selinux -v system_u:object_r:old_t:s0 \"$T/d/f\" \"$T/d/e\" \"$T/d/e/g\"\n"
        + "chmod " + mode + " \"$T/d\" && cd \"$T\"\n"
        + "setpriv --bounding-set -dac_override,-dac_read_search -- bash -c '" + command.replace("$TOOL", tool)
        + "' 2>/dev/null\necho \"status $?\"\nchmod 755 \"$T/d\"\n"
        + "getfattr -R -h -n security.selinux --absolute-names . 2>/dev/null | grep -v '^$'\n";
    String text = LauncherScript.run(dir, script, Map.of("T", dir.resolve("t").toString(),
        "FC", dir.resolve("file_contexts").toString()));
    assertTrue(text.contains("changing security context") || text.contains("Relabeled") || text.contains("status 1"),
        "the case ran: " + text);
    return text;
  }
}
