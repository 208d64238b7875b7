package dev.relabel.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.Fixtures;
import dev.relabel.fixtures.PolicyMutator;
import dev.relabel.match.LabelMatcher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded mutation fuzz of the policy parser (Jazzer is not in the offline Maven cache this
 * project builds from): 100,000 malformed {@code file_contexts} from {@link PolicyMutator} — real
 * lines with byte flips, truncations, meta characters, bad contexts and file types, NULs and huge
 * lines. Each must either load, and then compile into a matcher that answers lookups, or be
 * refused with errors that each name the file and a line the file has, in one line of text. No
 * case may throw anything else. That a refused policy labels nothing is shown on a real tree by
 * {@code MalformedPolicyTest} in relabel-cli.
 *
 * <p>{@code -Drelabel.fuzz.cases=N} and {@code -Drelabel.fuzz.seed=S} run more cases or others; a
 * failure names the seed and case to replay.
 */
class PolicyFuzzTest {
  private static final int CASES = Integer.getInteger("relabel.fuzz.cases", 100_000);
  private static final long SEED = Long.getLong("relabel.fuzz.seed", 20261129L);
  /** Every this many cases also goes through the loader, from a real file. */
  private static final int THROUGH_FILES = 500;

  @TempDir Path dir;

  /** Lines as the parser counts them: each '\n' ends one, and text after the last is one more. */
  private static int lineCount(byte[] content) {
    int lines = 0;
    for (byte b : content) {
      if (b == '\n') {
        lines++;
      }
    }
    return content.length > 0 && content[content.length - 1] != '\n' ? lines + 1 : lines;
  }

  private static void checkErrors(Path file, byte[] content, List<PolicyError> errors) {
    int lines = lineCount(content);
    for (PolicyError error : errors) {
      assertEquals(file, error.file(), error.toString());
      assertTrue(error.line() >= 1 && error.line() <= lines, "line " + error.line() + " of " + lines + ": " + error);
      assertTrue(!error.message().isBlank() && error.message().indexOf('\n') < 0, "one line of text: " + error);
    }
  }

  @Test
  void everyMutatedPolicyLoadsOrIsRefusedWithFileAndLine() throws Exception {
    PolicyMutator mutator = new PolicyMutator(SEED);
    Path file = dir.resolve("file_contexts");
    Pattern errorLine = Pattern.compile(Pattern.quote(file.toString()) + ":[1-9][0-9]*: [^\n]+");
    int accepted = 0;
    int refused = 0;
    long errorCount = 0;
    for (int n = 0; n < CASES; n++) {
      byte[] content = mutator.next();
      try {
        List<PolicyError> errors = new ArrayList<>();
        java.util.Map<String, dev.relabel.regex.PcrePattern> compiled = new java.util.HashMap<>();
        List<Spec> specs = SpecParser.parse(file, content, Origin.BASE, errors, compiled);
        checkErrors(file, content, errors);
        if (errors.isEmpty()) {
          accepted++;
          LabelMatcher matcher = LabelMatcher.compile(new Policy(file, specs, List.of(), List.of(), compiled));
          for (String path : List.of("/", "/etc/passwd", "/usr/bin/ls", "/dev/null", "/home/u/.ssh/id", "/a/a/a")) {
            for (FileType type : List.of(FileType.REGULAR_FILE, FileType.DIRECTORY, FileType.CHAR_DEVICE)) {
              matcher.lookup(path, type);
            }
          }
        } else {
          refused++;
          errorCount += errors.size();
        }
        if (n % THROUGH_FILES == 0) {
          Files.write(file, content);
          try {
            PolicyLoader.validating().load(file);
          } catch (PolicyException e) {
            checkErrors(file, content, e.errors());
            for (String line : e.getMessage().split("\n")) {
              assertTrue(errorLine.matcher(line).matches(), "FILE:LINE: message, got: " + line);
            }
          }
        }
      } catch (Throwable t) {
        throw new AssertionError("case " + n + " of seed " + SEED + " (-Drelabel.fuzz.seed=" + SEED + "): "
            + Fixtures.escape(content.length > 2_000 ? java.util.Arrays.copyOf(content, 2_000) : content), t);
      }
    }
    System.out.printf("PolicyFuzzTest: %d cases, %d loaded, %d refused with %d errors%n", CASES, accepted, refused,
        errorCount);
    // The mix must exercise both outcomes, or the mutator has stopped doing its job.
    assertTrue(accepted > CASES / 20 && refused > CASES / 4, accepted + " loaded, " + refused + " refused");
  }
}
