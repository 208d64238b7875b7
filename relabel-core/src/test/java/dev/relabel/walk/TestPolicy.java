package dev.relabel.walk;

import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.PolicyLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Small policies written to a temp directory laid out as a real one: {@code POLICY/contexts/files/file_contexts}. */
final class TestPolicy {
  private TestPolicy() {}

  /** Writes {@code lines} as {@code dir/contexts/files/file_contexts} and compiles it. */
  static LabelMatcher matcher(Path dir, String... lines) throws IOException {
    Path file = write(dir, lines);
    try {
      return LabelMatcher.compile(PolicyLoader.lenient().load(file));
    } catch (PolicyException e) {
      throw new AssertionError("test policy does not load: " + e.getMessage(), e);
    }
  }

  /** Writes {@code lines} as {@code dir/contexts/files/file_contexts}; returns that file. */
  static Path write(Path dir, String... lines) throws IOException {
    Path file = dir.resolve("contexts/files/file_contexts");
    Files.createDirectories(file.getParent());
    Files.write(file, List.of(lines), StandardCharsets.ISO_8859_1);
    return file;
  }

  /** Writes {@code dir/contexts/customizable_types}. */
  static void customizableTypes(Path dir, String... types) throws IOException {
    Files.createDirectories(dir.resolve("contexts"));
    Files.write(dir.resolve("contexts/customizable_types"), List.of(types), StandardCharsets.ISO_8859_1);
  }
}
