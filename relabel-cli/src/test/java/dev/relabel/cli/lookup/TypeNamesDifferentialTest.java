package dev.relabel.cli.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.cli.Trees;
import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code relabel lookup -m NAME} against {@code matchpathcon -m NAME} for each name matchpathcon's
 * manual lists ({@code file dir pipe chr_file blk_file lnk_file sock_file}), on a policy with one
 * spec of each type for one path: each name must pick the same spec. (matchpathcon reads only the
 * first letter, so its {@code fifo_file} is a regular file; relabel's is a FIFO, and not compared.)
 */
class TypeNamesDifferentialTest {
  private static final Path MATCHPATHCON = Path.of("/usr/sbin/matchpathcon");
  private static final String[] FLAGS = {"--", "-d", "-p", "-c", "-b", "-l", "-s"};

  @TempDir
  static Path scratch;
  private static Path policy;

  @BeforeAll
  static void policyWithASpecPerType() throws Exception {
    AttrTrees.requireTools(true);
    if (!Files.isExecutable(MATCHPATHCON)) {
      AttrTrees.unavailable(MATCHPATHCON + " is missing (apt-get install selinux-utils)");
    }
    StringBuilder lines = new StringBuilder("/.*\tsystem_u:object_r:default_t:s0\n");
    for (int i = 0; i < FLAGS.length; i++) {
      lines.append("/srv/x\t").append(FLAGS[i]).append("\tsystem_u:object_r:type").append(i).append("_t:s0\n");
    }
    policy = Files.writeString(scratch.resolve("file_contexts"), lines);
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "dir", "pipe", "chr_file", "blk_file", "lnk_file", "sock_file"})
  void eachNameMatchpathconTakesPicksTheSameSpec(String name) throws Exception {
    Run matchpathcon = AttrTrees.run(List.of(MATCHPATHCON.toString(), "-m", name, "-f", policy.toString(), "/srv/x"),
        scratch);
    Run lookup = Trees.relabel(List.of("lookup", "-m", name, "-f", policy.toString(), "/srv/x"));
    assertEquals(0, matchpathcon.status(), matchpathcon::toString);
    assertEquals(matchpathcon.out(), lookup.out(), lookup::toString);
    assertEquals(0, lookup.status(), lookup::toString);
  }
}
