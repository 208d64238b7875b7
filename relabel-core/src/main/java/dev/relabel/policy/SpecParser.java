package dev.relabel.policy;

import dev.relabel.regex.PcrePattern;
import dev.relabel.regex.PcreSyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  /** A line split into its fields, not yet checked. */
  private record Fields(int line, String regex, String typeFlag, String context) {}

  /**
   * Parses one file's bytes; problems are added to {@code errors}, in line order, and their lines
   * skipped. The expressions are checked on this thread: in a run's fresh JVM a parallel stream
   * was slower, its pool and machinery costing more than the second core gave back.
   */
  static List<Spec> parse(Path file, byte[] content, Origin origin, List<PolicyError> errors,
      Map<String, PcrePattern> compiled) {
    List<PolicyError> found = new ArrayList<>();
    List<Fields> lines = new ArrayList<>();
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
      split(file, content, start, stop, lineNumber, found).ifPresent(lines::add);
      start = end + 1;
    }
    String[] regexProblems = new String[lines.size()];
    for (int i = 0; i < regexProblems.length; i++) {
      regexProblems[i] = checkRegex(lines.get(i).regex(), compiled);
    }
    List<Spec> specs = new ArrayList<>(lines.size());
    Map<String, Optional<String>> contextProblems = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      Fields fields = lines.get(i);
      int problems = found.size();
      FileType type = FileType.ANY;
      if (fields.typeFlag() != null) {
        Optional<FileType> parsed = FileType.fromFlag(fields.typeFlag());
        if (parsed.isEmpty()) {
          found.add(new PolicyError(file, fields.line(),
              "invalid file type " + fields.typeFlag() + " (expected one of -- -d -l -c -b -s -p)"));
        } else {
          type = parsed.get();
        }
      }
      if (regexProblems[i] != null) {
        found.add(new PolicyError(file, fields.line(), regexProblems[i]));
      }
      // A policy has a few hundred distinct contexts on thousands of lines.
      contextProblems.computeIfAbsent(fields.context(), ContextSyntax::problem)
          .ifPresent(message -> found.add(new PolicyError(file, fields.line(), message)));
      if (found.size() == problems) {
        specs.add(new Spec(fields.regex(), type, fields.context(), file, fields.line(), origin));
      }
    }
    // Lines with too few fields were reported while splitting: put every error in line order.
    // A lambda, not Comparator.comparingInt: that one is serializable, which no class data sharing
    // archive of Java 17 holds, so every start that reads a text policy spun its class.
    found.sort((one, other) -> Integer.compare(one.line(), other.line()));
    errors.addAll(found);
    return specs;
  }

  /**
   * What PCRE2 would say of the expression, compiled as libselinux compiles it; null when valid.
   * An expression that had to be compiled to know goes into {@code compiled}, for the matcher.
   */
  private static String checkRegex(String regex, Map<String, PcrePattern> compiled) {
    if (compiled.containsKey(regex)) {
      return null;
    }
    try {
      PcrePattern.checkAnchored(regex).ifPresent(pattern -> compiled.put(regex, pattern));
      return null;
    } catch (PcreSyntaxException e) {
      return "invalid regex " + regex + ": " + e.getMessage();
    }
  }

  /** The fields of one line as {@code read_spec_entries} splits them; empty for a blank or comment line. */
  private static Optional<Fields> split(
      Path file, byte[] content, int start, int end, int line, List<PolicyError> errors) {
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
    String typeFlag = fields.size() == 3 ? fields.get(1) : null;
    return Optional.of(new Fields(line, fields.get(0), typeFlag, fields.get(fields.size() - 1)));
  }

  /** C's isspace in the C locale. */
  static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == 0x0b || b == '\f' || b == '\r';
  }
}
