package dev.relabel.spec;

import dev.relabel.regex.PcrePattern;
import dev.relabel.regex.PcreSyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the lines of one {@code file_contexts}-format file as libselinux's
 * {@code read_spec_entries} does, and checks each line as {@code setfiles} (libselinux with
 * validation) would: the file type flag, the regular expression, the context's syntax.
 *
 * <p>A line is whitespace-separated fields: {@code REGEX CONTEXT} or {@code REGEX TYPE CONTEXT}.
 * Leading whitespace is skipped; a line whose first field starts with {@code #} is a comment; a
 * field holding a non-ASCII byte is an error; fields after the third are ignored, as libselinux
 * ignores them.
 */
final class SpecParser {
  private SpecParser() {}

  /** Parses one file's bytes; problems are added to {@code errors} and their lines skipped. */
  static List<Spec> parse(Path file, byte[] content, Origin origin, List<PolicyError> errors) {
    List<Spec> specs = new ArrayList<>();
    int lineNumber = 0;
    int start = 0;
    while (start < content.length) {
      int end = start;
      while (end < content.length && content[end] != '\n') {
        end++;
      }
      lineNumber++;
      // libselinux reads the line with getline and then as a C string: a NUL ends it.
      int stop = start;
      while (stop < end && content[stop] != 0) {
        stop++;
      }
      parseLine(file, content, start, stop, lineNumber, origin, errors).ifPresent(specs::add);
      start = end + 1;
    }
    return specs;
  }

  private static Optional<Spec> parseLine(
      Path file, byte[] content, int start, int end, int line, Origin origin, List<PolicyError> errors) {
    List<String> fields = new ArrayList<>(3);
    int i = start;
    while (fields.size() < 3) {
      while (i < end && isSpace(content[i])) {
        i++;
      }
      if (i >= end) {
        break;
      }
      if (fields.isEmpty() && content[i] == '#') {
        return Optional.empty();
      }
      int fieldStart = i;
      while (i < end && !isSpace(content[i])) {
        if (content[i] < 0) {
          errors.add(new PolicyError(file, line, "Non-ASCII characters found"));
          return Optional.empty();
        }
        i++;
      }
      fields.add(new String(content, fieldStart, i - fieldStart, StandardCharsets.US_ASCII));
    }
    if (fields.isEmpty()) {
      return Optional.empty();
    }
    if (fields.size() == 1) {
      errors.add(new PolicyError(file, line, "line is missing fields: expected REGEX [TYPE] CONTEXT"));
      return Optional.empty();
    }
    String regex = fields.get(0);
    String context = fields.get(fields.size() - 1);
    FileType type = FileType.ANY;
    int problems = errors.size();
    if (fields.size() == 3) {
      Optional<FileType> parsed = FileType.fromFlag(fields.get(1));
      if (parsed.isEmpty()) {
        errors.add(new PolicyError(file, line,
            "invalid file type " + fields.get(1) + " (expected one of -- -d -l -c -b -s -p)"));
      } else {
        type = parsed.get();
      }
    }
    try {
      // libselinux compiles the expression anchored, as one string: "^" + REGEX + "$".
      PcrePattern.compile("^" + regex + "$");
    } catch (PcreSyntaxException e) {
      errors.add(new PolicyError(file, line, "invalid regex " + regex + ": " + e.getMessage()));
    }
    ContextSyntax.problem(context).ifPresent(message -> errors.add(new PolicyError(file, line, message)));
    if (errors.size() > problems) {
      return Optional.empty();
    }
    return Optional.of(new Spec(regex, type, context, file, line, origin));
  }

  /** C's isspace in the C locale. */
  static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == 0x0b || b == '\f' || b == '\r';
  }
}
