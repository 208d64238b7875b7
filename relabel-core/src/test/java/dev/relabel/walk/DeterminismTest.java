package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine gives the same result however its work is split: eight runs (-T 1, 2, 3, 4, each
 * twice) over identical scrambled copies of /etc and /usr/sbin (plus names that are not UTF-8 or
 * hold a newline, and a file hard-linked under one spec and under another) must leave identical labels (read
 * with getfattr) and identical reports: counts, failures, unused specs ({@code -W}), and the
 * changes and warnings the listener heard, as sets (lines from several threads come in any order).
 *
 * <p>A multiply-linked file whose names match specs with different labels gets the label of its
 * smallest name on every run (setfiles at -T N gives whichever name a worker meets first).
 */
@Timeout(600)
class DeterminismTest {
  private static final String[] SCRAMBLED = {
    "system_u:object_r:tmp_t:s0",
    "staff_u:staff_r:etc_t:s0-s0:c0.c3",
    "unconfined_u:object_r:user_home_t:s0",
    "garbage",
  };

  @TempDir static Path base;
  private static Path template;
  private static String scrambleDump;

  @BeforeAll
  static void template() throws Exception {
    AttrTrees.requireTools(true);
    template = base.resolve("template");
    // /usr/lib/systemd as well: /etc and /usr/sbin alone are about 1,400 entries on a minimal
    // machine, too few for the relabelled count below to pass 1,000 whatever the scramble.
    for (String source : List.of("/etc", "/usr/sbin", "/usr/lib/systemd")) {
      Path target = template.resolve(source.substring(1)).getParent();
      Files.createDirectories(target);
      AttrTrees.check(List.of("cp", "-a", "--no-preserve=xattr", source, target.toString()), base);
    }
    AttrTrees.touchRaw(template.resolve("etc"), "caf\u00e9-\u00ff", base);
    AttrTrees.touchRaw(template.resolve("etc"), "new\nline", base);
    Path linked = Files.writeString(template.resolve("etc/relabel-linked"), "");
    Files.createLink(template.resolve("etc/relabel-linked-too"), linked);
    // A third name under another spec (/usr/sbin, bin_t): a conflict, decided the same way each run.
    Files.createLink(template.resolve("usr/sbin/relabel-linked-elsewhere"), linked);
    Random random = new Random(7);
    Map<String, String> scramble = new LinkedHashMap<>();
    for (String entry : AttrTrees.entries(template, base)) {
      int choice = random.nextInt(SCRAMBLED.length + 1);
      scramble.put(entry, choice < SCRAMBLED.length ? SCRAMBLED[choice] : null);
    }
    scrambleDump = AttrTrees.restoreDump(scramble);
  }

  /** What one run left: labels by entry, and its report with the copy's path taken out. */
  private record Outcome(Map<String, String> labels, String report) {}

  private static Outcome run(LabelMatcher matcher, int threads, int round) throws Exception {
    Path copy = AttrTrees.labelledCopy(template, base.resolve("T" + threads + "-" + round), scrambleDump, base);
    RecordingListener listener = new RecordingListener();
    RelabelOptions options = RelabelOptions.defaults().withThreads(threads).withAlternateRoot(copy)
        .withReportUnusedSpecs(true);
    RelabelReport report = Relabeler.onDisk(matcher, options, listener).run(List.of(copy));
    assertTrue(!report.cancelled() && report.relabeled() > 1_000, report.toString());
    List<String> failures = new ArrayList<>();
    for (RelabelReport.Failure failure : report.failures()) {
      failures.add(failure.pathText() + " " + failure.errno() + " " + failure.message());
    }
    List<String> unused = report.unusedSpecs().stream().map(spec -> spec.file() + ":" + spec.line()).toList();
    List<String> warnings = new ArrayList<>(listener.warnings);
    warnings.sort(null);
    String text = "visited " + report.visited() + ", relabeled " + report.relabeled() + ", unmatched "
        + report.unmatched() + "\nfailures " + failures + "\nunused " + unused + "\nchanges "
        + listener.changeLines() + "\nwarnings " + warnings;
    return new Outcome(AttrTrees.labels(copy, base), text.replace(copy.toString(), "COPY"));
  }

  @Test
  void everyThreadCountGivesTheSameLabelsAndTheSameReport() throws Exception {
    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.validating().load(Oracles.DEBIAN_FILE_CONTEXTS));
    Outcome first = run(matcher, 1, 0);
    assertTrue(first.labels().size() > 1_000, "tree too small: " + first.labels().size());
    assertTrue(first.report().toString().contains("conflicting specifications for "),
        "the cross-spec hard link should be reported: " + first.report());
    for (int round = 0; round < 2; round++) {
      for (int threads = 1; threads <= 4; threads++) {
        if (round == 0 && threads == 1) {
          continue;
        }
        Outcome next = run(matcher, threads, round);
        assertEquals(first.report(), next.report(), "-T " + threads + ", round " + round);
        assertEquals(first.labels(), next.labels(), "-T " + threads + ", round " + round);
      }
    }
  }
}
