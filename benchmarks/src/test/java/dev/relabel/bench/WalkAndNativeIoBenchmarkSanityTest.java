package dev.relabel.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.bench.tree.TreeGenerator;
import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.match.Label;
import dev.relabel.nativeio.Kernel;
import dev.relabel.policy.FileType;
import dev.relabel.report.RelabelReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The new JMH benchmarks measure what they say: one invocation each, outside JMH. */
class WalkAndNativeIoBenchmarkSanityTest {
  private static final Kernel KERNEL = Kernel.linux();

  @Test
  void walkBenchmarkChecksATreeWhoseLabelsAreTheMatchersAnswers() throws Exception {
    String missing = Oracles.missing();
    if (missing != null) {
      AttrTrees.unavailable(missing); // fails when CI=true
    }
    for (int threads : new int[] {1, 2}) {
      WalkBenchmark bench = new WalkBenchmark();
      bench.fileContexts = Oracles.DEBIAN_FILE_CONTEXTS.toString();
      bench.size = 3000;
      bench.threads = threads;
      bench.setup();

      // Setup labelled every entry (-F) with the policy's answer for its path.
      int labelled = 0;
      for (TreeGenerator.Node node : TreeGenerator.plan(3000, 1)) {
        FileType type = switch (node.kind()) {
          case DIRECTORY -> FileType.DIRECTORY;
          case FILE -> FileType.REGULAR_FILE;
          case SYMLINK -> FileType.SYMLINK;
        };
        Label label = bench.matcher.lookup("/" + node.path(), type);
        byte[] actual = bench.tree.labelOf(node.path());
        if (label.kind() == Label.Kind.CONTEXT) {
          assertArrayEquals(label.context().orElseThrow().getBytes(StandardCharsets.ISO_8859_1), actual, node.path());
          labelled++;
        } else {
          assertNull(actual, node.path());
        }
      }
      assertTrue(labelled > 2500, "most entries have a context: " + labelled);

      // A measured walk visits every entry and, every label being right, changes none.
      RelabelReport report = bench.relabelerCheck();
      assertEquals(bench.tree.size(), report.visited());
      assertEquals(0, report.relabeled());
      assertTrue(report.succeeded(), report.failures().toString());
      assertEquals(bench.serialLookups(), bench.serialLookups(), "the floor walk is deterministic");
    }
  }

  @Test
  void nativeIoBenchmarkListsReadsAndWritesLabels(@TempDir Path dir) throws Exception {
    NativeIoBenchmark bench = new NativeIoBenchmark();
    bench.parent = dir.toString();
    bench.setup();
    try {
      assertEquals(NativeIoBenchmark.FILES, bench.listDirectory());
      assertEquals("system_u:object_r:usr_t:s0", text(bench.getLabel()));
      assertEquals(1, bench.stat().nlink(), "statx of an entry");
      // A full pass of writes flips every file's label to the other one.
      for (int i = 0; i < NativeIoBenchmark.FILES; i++) {
        bench.setLabel();
      }
      byte[] name = bench.names[0];
      assertEquals("system_u:object_r:bin_t:s0", text(KERNEL.getLabel(bench.dirFd, name, name)));
    } finally {
      bench.tearDown();
    }
    try (var left = java.nio.file.Files.list(dir)) {
      assertEquals(List.of(), left.toList(), "tearDown removes its directory");
    }
  }

  private static String text(byte[] label) {
    String s = new String(label, StandardCharsets.ISO_8859_1);
    return s.endsWith("\0") ? s.substring(0, s.length() - 1) : s;
  }
}
