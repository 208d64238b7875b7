package dev.relabel.policy;

import java.nio.file.Path;

/**
 * One problem found in a policy file, reported as {@code FILE:LINE: message}.
 *
 * @param file the file
 * @param line the 1-based line, or 0 when the problem concerns the whole file
 * @param message what is wrong, in one line
 */
public record PolicyError(Path file, int line, String message) {
  @Override
  public String toString() {
    String name = PathBytes.text(file);
    return line > 0 ? name + ":" + line + ": " + message : name + ": " + message;
  }
}
