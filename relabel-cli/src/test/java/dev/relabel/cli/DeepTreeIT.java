package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * A chain of 6,000 directories, far past PATH_MAX, walked on one worker (-T 1, which keeps fts's
 * order and so holds a descriptor per level down to a depth) by a process allowed 300
 * descriptors (prlimit, soft and hard, so the JVM cannot raise it) and a 32 MiB heap: setfiles and
 * chcon -R label the leaf at the bottom and exit 0, no "Too many open files" on the way. Each
 * directory's task held its path (and the relabel walk's its lookup state, the path thrice more)
 * until its subtree was done, memory the square of the depth: OutOfMemoryError here, and at
 * 20,000 levels in a 64 MiB heap setfiles hung (its worker thread died). The leaf is linked at
 * the top too: setfiles labels a multiply-linked file after the walk, reaching its first name
 * again from the root, which held a descriptor a level ("Could not read .../leaf: Too many open
 * files", the file left unlabelled). A process is needed for the limit.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DeepTreeIT {
  private static final int DEPTH = 6_000;
  private static Path launcher;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    launcher = LauncherScript.launcher("DeepTreeIT");
    AttrTrees.requireTools(false);
    if (!Files.isExecutable(Path.of("/usr/bin/prlimit"))) {
      AttrTrees.unavailable("prlimit is missing (apt-get install util-linux)");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"setfiles -T 1 \"$FC\" \"$T\"", "chcon -R -T 1 system_u:object_r:new_t:s0 \"$T\""})
  void aChainDeeperThanTheDescriptorLimitIsLabelledToItsLeaf(String command) throws Exception {
    Files.writeString(dir.resolve("file_contexts"), dir.resolve("t") + "(/.*)?\tsystem_u:object_r:new_t:s0\n");
    // bash's cd grows slow past PATH_MAX (it keeps $PWD): the chain is made and read by Python.
    String chain = "import os, sys\nos.chdir(sys.argv[1])\n";
    String script = "set -u\nmkdir \"$T\" && python3 -c \"$MAKE\" \"$T\"\n"
        + "RELABEL_JAVA_OPTS=-Xmx32m prlimit --nofile=300:300 " + launcher + " " + command + " 2>&1 | cut -c1-200\n"
        + "echo \"status ${PIPESTATUS[0]}\"\npython3 -c \"$READ\" \"$T\"\n"
        + "rm -rf \"$T\"\n"; // JUnit's clean-up cannot delete past PATH_MAX
    String make = chain + "for i in range(" + DEPTH + "):\n    os.mkdir('d'); os.chdir('d')\nopen('leaf', 'w').close()\n"
        + "os.link('leaf', sys.argv[1] + '/top')\n";
    String read = chain + "n = 0\nwhile os.path.isdir('d'):\n    os.chdir('d'); n += 1\n"
        + "print('depth', n, os.getxattr('leaf', 'security.selinux').rstrip(b'\\0').decode())\n";
    String text = LauncherScript.run(dir, script, Map.of("T", dir.resolve("t").toString(),
        "FC", dir.resolve("file_contexts").toString(), "MAKE", make, "READ", read));
    assertEquals("status 0\ndepth " + DEPTH + " system_u:object_r:new_t:s0\n", text);
  }

  /**
   * relabel tar -C of a chain 6,000 directories deep in a 32 MiB heap, allowed 300 descriptors as
   * above: every member, the leaf's name 12,006 bytes, labelled. The walk held each level's name
   * and path (memory growing with the square of the depth) and the writer's window 4,096 members
   * whatever their headers' size: it died of OutOfMemoryError here; it held a descriptor a level
   * too ("Too many open files"), where GNU tar gives them back and archives the chain.
   */
  @org.junit.jupiter.api.Test
  void aChainThousandsDeepIsArchivedInASmallHeap() throws Exception {
    int depth = 6_000;
    Files.writeString(dir.resolve("file_contexts"), "/(.*/)?leaf\tsystem_u:object_r:leaf_t:s0\n");
    String chain = "import os, sys\nos.chdir(sys.argv[1])\n";
    String make = chain + "for i in range(" + depth + "):\n    os.mkdir('d'); os.chdir('d')\nopen('leaf', 'w').close()\n";
    String read = "import sys, tarfile\nmembers = tarfile.open(sys.argv[1]).getmembers()\n"
        + "print(len(members), len(members[-1].name), members[-1].pax_headers['SCHILY.xattr.security.selinux'])\n";
    String script = "set -u\nmkdir \"$T\" && python3 -c \"$MAKE\" \"$T\"\n"
        + "RELABEL_JAVA_OPTS=-Xmx32m prlimit --nofile=300:300 " + launcher + " tar -f \"$FC\" -C \"$T\" \"$OUT\" 2>&1 | cut -c1-200\n"
        + "echo \"status ${PIPESTATUS[0]}\"\npython3 -c \"$READ\" \"$OUT\"\n"
        + "rm -rf \"$T\"\n"; // JUnit's clean-up cannot delete past PATH_MAX
    String text = LauncherScript.run(dir, script, Map.of("T", dir.resolve("t").toString(),
        "FC", dir.resolve("file_contexts").toString(), "OUT", dir.resolve("t.tar").toString(), "MAKE", make,
        "READ", read));
    assertEquals("status 0\n" + (depth + 2) + " " + (2 + 2 * depth + 4) + " system_u:object_r:leaf_t:s0\u0000\n", text);
  }
}
