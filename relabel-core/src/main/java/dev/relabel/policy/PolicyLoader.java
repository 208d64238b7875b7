package dev.relabel.policy;

import dev.relabel.regex.PcrePattern;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Loads a policy's file contexts the way libselinux's file backend does: {@code FILE}, then
 * {@code FILE.homedirs} and {@code FILE.local} when they exist, and the aliases of
 * {@code FILE.subs_dist} and {@code FILE.subs}. Either everything loads, or a
 * {@link PolicyException} lists every problem with its file and line.
 */
public final class PolicyLoader {
  /** Where libselinux looks for its configuration, relative to the root. */
  public static final String SELINUX_CONFIG = "etc/selinux/config";
  /** The policy type libselinux assumes when the configuration names none. */
  public static final String DEFAULT_POLICY_TYPE = "targeted";

  /** Where a warning goes by default: standard error, as libselinux's default log callback writes. */
  private static final Consumer<String> STANDARD_ERROR = new StandardError();

  /**
   * A class, not a lambda: this is loaded by every start, and the first lambda a JVM links costs
   * milliseconds of method-handle machinery in the interpreter, archived class or not.
   */
  private static final class StandardError implements Consumer<String> {
    @Override
    public void accept(String message) {
      // in the escaping charset: a file name's bytes the locale cannot decode print as they are
      byte[] line = ("relabel: " + message + "\n").getBytes(PathBytes.charset());
      System.err.write(line, 0, line.length);
      System.err.flush();
    }
  }

  private final boolean checkDuplicates;
  private final boolean useCompiled;
  private final Consumer<String> warnings;

  private PolicyLoader(boolean checkDuplicates, boolean useCompiled, Consumer<String> warnings) {
    this.checkDuplicates = checkDuplicates;
    this.useCompiled = useCompiled;
    this.warnings = warnings;
  }

  /** A loader that accepts duplicate specs, as {@code selabel_open} without validation does. */
  public static PolicyLoader lenient() {
    return new PolicyLoader(false, true, STANDARD_ERROR);
  }

  /**
   * A loader that also rejects duplicate specs in the base file, as {@code setfiles} (libselinux
   * with {@code SELABEL_OPT_VALIDATE}) does.
   */
  public static PolicyLoader validating() {
    return new PolicyLoader(true, true, STANDARD_ERROR);
  }

  /**
   * This loader, reading the text files even where a fresh compiled policy ({@link PolicyCache})
   * lies beside them: for tests that hold the two to each other, and for {@code relabel compile}.
   */
  public PolicyLoader ignoringCompiled() {
    return new PolicyLoader(checkDuplicates, false, warnings);
  }

  /**
   * This loader, telling {@code warnings} (instead of standard error) why a compiled policy beside
   * the files was not used: stale, corrupt, from another version, or not to be trusted.
   */
  public PolicyLoader warningsTo(Consumer<String> warnings) {
    return new PolicyLoader(checkDuplicates, useCompiled, java.util.Objects.requireNonNull(warnings));
  }

  /**
   * Loads {@code fileContexts} and the files libselinux loads beside it: from the compiled policy
   * {@code FILE.relabel} when it is there, trusted and fresh (see {@link PolicyCache}); otherwise,
   * with a warning when one was there, from the text files.
   */
  public Policy load(Path fileContexts) throws PolicyException {
    if (useCompiled) {
      java.util.Optional<Policy> compiled = PolicyCache.read(fileContexts, warnings);
      if (compiled.isPresent()) {
        return compiled.get();
      }
    }
    return loadText(fileContexts, null);
  }

  /**
   * Loads the text files; with {@code stamps}, records in it, by suffix, what each file was
   * when it was read (for a compiled policy of what this load read).
   */
  Policy loadText(Path fileContexts, Map<String, SourceStamp> stamps) throws PolicyException {
    List<PolicyError> errors = new ArrayList<>();
    List<Spec> specs = new ArrayList<>();
    Map<String, PcrePattern> compiled = new HashMap<>();
    byte[] base = read(fileContexts, "", true, errors, stamps);
    if (base != null) {
      List<Spec> baseSpecs = SpecParser.parse(fileContexts, base, Origin.BASE, errors, compiled);
      if (checkDuplicates) {
        findDuplicates(baseSpecs, errors);
      }
      specs.addAll(baseSpecs);
    }
    for (Origin origin : List.of(Origin.HOMEDIRS, Origin.LOCAL)) {
      Path file = sibling(fileContexts, origin.suffix());
      byte[] content = read(file, origin.suffix(), false, errors, stamps);
      if (content != null) {
        specs.addAll(SpecParser.parse(file, content, origin, errors, compiled));
      }
    }
    List<PathAlias> local = aliases(sibling(fileContexts, ".subs"), ".subs", errors, stamps);
    List<PathAlias> dist = aliases(sibling(fileContexts, ".subs_dist"), ".subs_dist", errors, stamps);
    if (!errors.isEmpty()) {
      throw new PolicyException(errors);
    }
    return new Policy(fileContexts, specs, local, dist, compiled);
  }

  /**
   * The system's {@code file_contexts} under {@code root}, found as libselinux finds it: the
   * {@code SELINUXTYPE=} of {@code ROOT/etc/selinux/config} (default {@value #DEFAULT_POLICY_TYPE}),
   * then {@code ROOT/etc/selinux/TYPE/contexts/files/file_contexts}.
   */
  public static Path systemFileContexts(Path root) throws PolicyException {
    Path config = root.resolve(SELINUX_CONFIG);
    String type = DEFAULT_POLICY_TYPE;
    try {
      // As libselinux's init_selinux_config: leading C whitespace skipped, the key matched
      // case-insensitively, whitespace after '=' skipped, trailing whitespace and control
      // characters removed (never the value's first character); the last such line wins.
      String text = new String(SmallFile.read(config), StandardCharsets.ISO_8859_1);
      for (String line : text.split("\n", -1)) {
        int at = 0;
        while (at < line.length() && isCSpace(line.charAt(at))) {
          at++;
        }
        if (line.regionMatches(true, at, "SELINUXTYPE=", 0, "SELINUXTYPE=".length())) {
          at += "SELINUXTYPE=".length();
          while (at < line.length() && isCSpace(line.charAt(at))) {
            at++;
          }
          int end = line.length();
          while (end - at > 1 && (isCSpace(line.charAt(end - 1)) || line.charAt(end - 1) < 0x20
              || line.charAt(end - 1) == 0x7f)) {
            end--;
          }
          type = line.substring(at, end);
        }
      }
    } catch (NoSuchFileException e) {
      throw new PolicyException(new PolicyError(config, 0,
          "no SELinux configuration: is a policy installed (for example selinux-policy-default)?"));
    } catch (IOException e) {
      throw new PolicyException(new PolicyError(config, 0, describe(e)));
    }
    if (type.isEmpty() || type.contains("/")) {
      throw new PolicyException(new PolicyError(config, 0, "invalid SELINUXTYPE '" + type + "'"));
    }
    return root.resolve("etc/selinux").resolve(type).resolve("contexts/files/file_contexts");
  }

  /** C's isspace in the C locale. */
  private static boolean isCSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
  }

  static Path sibling(Path file, String suffix) {
    return PathBytes.withSuffix(file, suffix);
  }

  private static byte[] read(Path file, String suffix, boolean required, List<PolicyError> errors,
      Map<String, SourceStamp> stamps) {
    try {
      if (stamps == null) {
        return Files.readAllBytes(file);
      }
      // The times before the bytes: a write between the two leaves a stamp that no longer matches.
      SourceStamp.Stat stat = SourceStamp.stat(file);
      byte[] content = stat.present() ? Files.readAllBytes(file) : null;
      stamps.put(suffix, SourceStamp.of(suffix, stat, content, System.currentTimeMillis() * 1_000_000L));
      if (content == null) {
        throw new NoSuchFileException(file.toString());
      }
      return content;
    } catch (NoSuchFileException e) {
      if (stamps != null) {
        stamps.put(suffix, SourceStamp.of(suffix, SourceStamp.Stat.ABSENT, null, 0));
      }
      if (required) {
        errors.add(new PolicyError(file, 0, "No such file or directory"));
      }
      return null;
    } catch (IOException e) {
      errors.add(new PolicyError(file, 0, describe(e)));
      return null;
    }
  }

  static String describe(IOException e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName().replace("Exception", "").toLowerCase(Locale.ROOT)
        + (message == null ? "" : ": " + message);
  }

  /**
   * libselinux's {@code nodups_specs}: two specs with the same expression whose types can apply to
   * the same file are an error, whether or not their contexts differ.
   */
  private static void findDuplicates(List<Spec> specs, List<PolicyError> errors) {
    java.util.Map<String, List<Spec>> byRegex = new java.util.HashMap<>();
    for (Spec spec : specs) {
      List<Spec> earlier = byRegex.computeIfAbsent(spec.regex(), k -> new ArrayList<>());
      for (Spec previous : earlier) {
        if (previous.fileType().admits(spec.fileType())) {
          String message = previous.context().equals(spec.context())
              ? "Multiple same specifications for " + spec.regex() + " (first at line " + previous.line() + ")"
              : "Multiple different specifications for " + spec.regex() + " (" + spec.context() + " and "
                  + previous.context() + "; first at line " + previous.line() + ")";
          errors.add(new PolicyError(spec.file(), spec.line(), message));
        }
      }
      earlier.add(spec);
    }
  }

  /** libselinux reads alias files with {@code fgets(buf, sizeof(buf) - 1)}, {@code buf} 1024 bytes. */
  private static final int ALIAS_CHUNK = 1022;

  /**
   * {@code .subs}/{@code .subs_dist}: {@code ALIAS TARGET} per line, read exactly as
   * {@code selabel_subs_init} reads it: in {@code fgets} chunks of at most {@value #ALIAS_CHUNK}
   * bytes (a longer line is read as several), fields separated by C {@code isspace} (space, tab,
   * LF, VT, FF, CR; not 0x1c-0x1f, which Java calls whitespace), a first field starting with
   * {@code #} a comment, fields after the second ignored, a line of fewer than two fields skipped.
   * A NUL byte ends a field like a space does.
   */
  private static List<PathAlias> aliases(Path file, String suffix, List<PolicyError> errors,
      Map<String, SourceStamp> stamps) {
    byte[] content = read(file, suffix, false, errors, stamps);
    List<PathAlias> aliases = new ArrayList<>();
    if (content == null) {
      return aliases;
    }
    int start = 0;
    while (start < content.length) {
      int end = start;
      while (end < content.length && end - start < ALIAS_CHUNK) {
        if (content[end++] == '\n') {
          break;
        }
      }
      parseAlias(Arrays.copyOf(Arrays.copyOfRange(content, start, end), end - start + 1), aliases);
      start = end;
    }
    return aliases;
  }

  /** One {@code fgets} chunk, NUL-terminated. */
  private static void parseAlias(byte[] buf, List<PathAlias> aliases) {
    int src = 0;
    while (buf[src] != 0 && SpecParser.isSpace(buf[src])) {
      src++;
    }
    if (buf[src] == '#') {
      return;
    }
    int srcEnd = src;
    while (buf[srcEnd] != 0 && !SpecParser.isSpace(buf[srcEnd])) {
      srcEnd++;
    }
    // C writes a NUL over the byte after the field and reads on from the next one; when the
    // field ran to the chunk's end that is past the string (stale buffer bytes): no target.
    if (srcEnd == src || srcEnd == buf.length - 1) {
      return;
    }
    int dst = srcEnd + 1;
    while (buf[dst] != 0 && SpecParser.isSpace(buf[dst])) {
      dst++;
    }
    int dstEnd = dst;
    while (buf[dstEnd] != 0 && !SpecParser.isSpace(buf[dstEnd])) {
      dstEnd++;
    }
    if (dstEnd == dst) {
      return;
    }
    aliases.add(new PathAlias(new String(buf, src, srcEnd - src, StandardCharsets.ISO_8859_1),
        new String(buf, dst, dstEnd - dst, StandardCharsets.ISO_8859_1)));
  }
}
