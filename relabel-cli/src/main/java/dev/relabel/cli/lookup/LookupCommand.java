package dev.relabel.cli.lookup;

import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.FailureReport;
import dev.relabel.cli.common.Getopt;
import dev.relabel.cli.common.Io;
import dev.relabel.cli.common.IoHost;
import dev.relabel.cli.common.PicocliUsage;
import dev.relabel.cli.common.QuickVerb;
import dev.relabel.cli.common.RecordReader;
import dev.relabel.cli.common.UsageErrors;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.output.JsonReport;
import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PathBytes;
import dev.relabel.policy.Policy;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.PolicyLoader;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code relabel lookup}: the label the policy gives each path, as {@code matchpathcon} prints it,
 * except that "no spec matches" is told apart from {@code <<none>>}. The quick path runs it without
 * picocli for the options whose letters {@link #option} applies.
 */
@Command(
    name = "lookup",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Print the label the policy gives each PATH, like matchpathcon. Only the policy is read:"
          + " a PATH need not exist, and it is looked up as TYPE, not as what is on disk.",
    },
    footerHeading = "%nOutput:%n",
    footer = {
      "With --json, standard output holds one JSON report instead (see 'relabel --help'): each"
          + " answer in 'results' as {path, answer: context|none|nomatch|error, context}.",
      "",
      "Otherwise one line per PATH, in order: PATH<TAB>ANSWER, with PATH exactly as given (its bytes"
          + " unchanged), where ANSWER is one of",
      "  CONTEXT      the context the policy gives PATH",
      "  <<none>>     the policy says to leave PATH alone",
      "  <<nomatch>>  no spec matches PATH (matchpathcon prints <<none>> for this too)",
      "  <<error>>    the request was invalid; why is on standard error, as"
          + " 'relabel: WHERE: REASON'",
      "",
      "With --stdin, each line of standard input is one request: PATH, or TYPE<TAB>PATH with TYPE"
          + " as for -m (a line without TYPE is looked up as -m says). Lines end at \\n only; every"
          + " other byte, a \\r or a later tab included, is part of the PATH, which is never"
          + " decoded. A line holding a tab always starts with TYPE, so write a path that contains"
          + " a tab as any<TAB>PATH. An unknown TYPE, an empty PATH, a NUL byte or a PATH outside"
          + " ROOT answers <<error>>, and the following lines are still answered. Answers are"
          + " written in batches: whenever the input runs dry and at its end.",
      "",
      "Exit status:",
      "  0  every PATH got a CONTEXT or <<none>>",
      "  1  some PATH got <<nomatch>> or <<error>>; or a usage error; or an unusable policy, each",
      "     problem printed as 'relabel: FILE:LINE: message'; or an I/O error",
    })
public final class LookupCommand implements Callable<Integer>, JsonReport.Kind.Declared, QuickVerb {
  /** The answer for a path no spec matches. */
  public static final String NO_MATCH = "<<nomatch>>";
  /** The answer for an invalid request. */
  public static final String ERROR = "<<error>>";

  private static final byte[] NO_MATCH_LINE = answerLine(NO_MATCH);
  private static final byte[] NONE_LINE = answerLine(dev.relabel.policy.Spec.NONE);
  private static final byte[] ERROR_LINE = answerLine(ERROR);
  private static final FileType[] TYPES = FileType.values();
  private static final byte[][] TYPE_NAMES = new byte[TYPES.length][];
  private static final byte[] PIPE = FileTypeConverter.PIPE.getBytes(StandardCharsets.US_ASCII);

  static {
    for (int i = 0; i < TYPES.length; i++) {
      TYPE_NAMES[i] = TYPES[i].className().getBytes(StandardCharsets.US_ASCII);
    }
  }

  @ParentCommand
  private IoHost parent;

  @Override
  public JsonReport.Kind reportKind() {
    return JsonReport.Kind.LOOKUP;
  }

  @Override
  public ExitStatus.Scheme exitScheme() {
    return ExitStatus.Scheme.RELABEL;
  }

  @Spec
  private CommandSpec spec;

  @Option(
      names = {"-f", "--file-contexts"},
      paramLabel = "FILE_CONTEXTS",
      description = {
        "The policy's file_contexts; FILE_CONTEXTS.{homedirs,local,subs,subs_dist} are loaded"
            + " too when they exist, as libselinux does. Default: the system policy, the one"
            + " ROOT/etc/selinux/config names (SELINUXTYPE=, default targeted)."
      })
  private Path fileContexts;

  @Option(
      names = {"-r", "--root"},
      paramLabel = "ROOT",
      description = {
        "The root of the file system the paths belong to, as setfiles -r: every PATH must be ROOT"
            + " or lie under it (compared as text), and ROOT is removed before the lookup, so"
            + " ROOT/etc/passwd is looked up as /etc/passwd and printed as given. Without -f the"
            + " policy is also the one under ROOT. Default: /."
      })
  private String root;

  @Option(
      names = {"-m", "--type"},
      paramLabel = "TYPE",
      defaultValue = "any",
      converter = FileTypeConverter.class,
      completionCandidates = FileTypeConverter.class,
      description = {
        "Look PATHs up as this file type: ${COMPLETION-CANDIDATES}; 'pipe' is fifo_file, as"
            + " matchpathcon spells it. 'any' (the default) lets specs of every type apply, as"
            + " matchpathcon without -m."
      })
  private FileType type = FileType.ANY;

  /** Whether the quick path read -m (picocli takes it once). */
  private boolean typeGiven;

  @Option(
      names = "--stdin",
      description = {"Read the requests from standard input, one per line (see below), instead of PATH arguments."})
  private boolean stdin;

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description = {
        "The paths to look up, as bytes: a name the locale's charset cannot decode is looked up as given."
      })
  private List<String> paths = new ArrayList<>();

  // Created here, not by picocli (which uses a mixin field's value when it has one), so that the
  // quick path can build this verb without picocli.
  @Mixin
  private JsonOption json = new JsonOption();

  /** With --json: the report the answers go to instead of standard output's lines. */
  private JsonReport report;

  private LabelMatcher matcher;
  private String rootPrefix;
  private PrintWriter err;
  private final Map<String, byte[]> contextLines = new HashMap<>();

  @Override
  public Integer call() throws IOException, PolicyException {
    return run(parent.io(), new PicocliUsage(spec));
  }

  /**
   * The quick path's letters: {@code -f}, {@code -r} and {@code -m} once each, with a value picocli
   * converts and the run accepts (a ROOT that is not empty); {@code --stdin} is picocli's path's.
   */
  @Override
  public boolean option(char letter, Getopt getopt) {
    switch (letter) {
      case 'f' -> {
        String file = fileContexts == null ? getopt.argument() : null;
        fileContexts = file == null ? null : PathBytes.path(file); // as picocli converts a Path
        return fileContexts != null;
      }
      case 'r' -> {
        root = root == null ? getopt.argument() : null;
        return root != null && !root.isEmpty();
      }
      case 'm' -> {
        String name = typeGiven ? null : getopt.argument();
        typeGiven = true;
        type = name == null ? null : FileTypeConverter.named(name).orElse(null);
        return type != null;
      }
      default -> {
        return false;
      }
    }
  }

  /** The quick path's long flag: {@code --json}. */
  @Override
  public boolean longOption(String name) {
    return json.longOption(name);
  }

  /** The quick path's PATHs: at least one (without, picocli's path says what is missing). */
  @Override
  public boolean operands(List<String> operands, Map<String, String> environment) {
    paths = operands;
    return !operands.isEmpty();
  }

  @Override
  public void failed(Io io, FailureReport failure) {
    json.failed(io, JsonReport.Kind.LOOKUP, "lookup", failure.messages(), failure.status());
  }

  /** The verb, once its options are read, on either path. */
  @Override
  public int run(Io io, UsageErrors usage) throws IOException, PolicyException {
    if (stdin && !paths.isEmpty()) {
      throw usage.error("--stdin takes no PATH arguments");
    }
    if (!stdin && paths.isEmpty()) {
      throw usage.error("missing PATH (or --stdin)");
    }
    report = json.open(io, JsonReport.Kind.LOOKUP, "lookup", false, false);
    err = JsonOption.textStreams(io, report).errWriter();
    rootPrefix = rootPrefix(io, usage);
    matcher = LabelMatcher.compile(loadPolicy());
    OutputStream out = new BufferedOutputStream(report == null ? io.out() : OutputStream.nullOutputStream(), 1 << 16);
    boolean allAnswered = true;
    try {
      if (stdin) {
        allAnswered = answerStdin(io, out);
      } else {
        for (String path : paths) {
          byte[] bytes = path.getBytes(io.charset());
          allAnswered &= answer(bytes, 0, bytes.length, type, out, 0);
        }
      }
    } finally {
      out.flush();
    }
    int status = allAnswered ? ExitStatus.OK : ExitStatus.FAILURE;
    return report == null ? status : report.finish(status);
  }

  private Policy loadPolicy() throws PolicyException {
    Path file = fileContexts;
    if (file == null) {
      file = PolicyLoader.systemFileContexts(PathBytes.path(root == null ? "/" : root));
    }
    return PolicyLoader.lenient().load(file);
  }

  /** ROOT as a one-char-per-byte string without trailing slashes; empty for "/" or no -r. */
  private String rootPrefix(Io io, UsageErrors usage) {
    if (root == null) {
      return "";
    }
    if (root.isEmpty()) {
      throw usage.error("ROOT must not be empty");
    }
    String prefix = new String(root.getBytes(io.charset()), StandardCharsets.ISO_8859_1);
    int end = prefix.length();
    while (end > 0 && prefix.charAt(end - 1) == '/') {
      end--;
    }
    return prefix.substring(0, end);
  }

  private boolean answerStdin(Io io, OutputStream out) throws IOException {
    RecordReader lines = new RecordReader(new BufferedInputStream(io.in(), 1 << 16), (byte) '\n', out);
    boolean allAnswered = true;
    long lineNumber = 0;
    while (lines.next()) {
      lineNumber++;
      byte[] b = lines.buffer();
      int start = lines.start();
      int end = lines.end();
      if (lines.overlong()) {
        // Not held, so not echoed: the answer line keeps its place, its PATH field empty.
        out.write(ERROR_LINE);
        String problem = "line longer than " + lines.longest() + " bytes";
        jsonAnswer(b, start, end, "error", null, problem);
        error(null, lineNumber, problem);
        allAnswered = false;
        continue;
      }
      int tab = -1;
      for (int i = start; i < end; i++) {
        if (b[i] == '\t') {
          tab = i;
          break;
        }
      }
      FileType requested = type;
      int pathStart = start;
      if (tab >= 0) {
        pathStart = tab + 1;
        requested = typeNamed(b, start, tab);
        if (requested == null) {
          out.write(b, pathStart, end - pathStart);
          out.write(ERROR_LINE);
          String problem = "unknown file type '"
              + Text.escape(new String(b, start, tab - start, StandardCharsets.ISO_8859_1))
              + "' (expected " + FileTypeConverter.NAMES + ")";
          jsonAnswer(b, pathStart, end, "error", null, problem);
          error(null, lineNumber, problem);
          allAnswered = false;
          continue;
        }
      }
      allAnswered &= answer(b, pathStart, end, requested, out, lineNumber);
    }
    return allAnswered;
  }

  private static FileType typeNamed(byte[] b, int start, int end) {
    for (int i = 0; i < TYPES.length; i++) {
      byte[] name = TYPE_NAMES[i];
      if (Arrays.equals(b, start, end, name, 0, name.length)) {
        return TYPES[i];
      }
    }
    return Arrays.equals(b, start, end, PIPE, 0, PIPE.length) ? FileType.FIFO : null;
  }

  /**
   * Looks up the path {@code b[start, end)} and writes {@code PATH<TAB>ANSWER\n}; true when the
   * answer is a context or {@code <<none>>}. Messages name the request by {@code lineNumber} when
   * it is positive, otherwise by the path.
   */
  private boolean answer(byte[] b, int start, int end, FileType requested, OutputStream out, long lineNumber)
      throws IOException {
    out.write(b, start, end - start);
    String path = new String(b, start, end - start, StandardCharsets.ISO_8859_1);
    String problem = null;
    String key = path;
    if (path.isEmpty()) {
      problem = "empty path";
    } else if (path.indexOf('\0') >= 0) {
      problem = "path contains a NUL byte";
    } else if (!rootPrefix.isEmpty()) {
      if (path.equals(rootPrefix)) {
        key = "/";
      } else if (path.startsWith(rootPrefix) && path.charAt(rootPrefix.length()) == '/') {
        key = path.substring(rootPrefix.length());
      } else {
        problem = "not under ROOT " + Text.escape(rootPrefix);
      }
    }
    if (problem != null) {
      out.write(ERROR_LINE);
      jsonAnswer(b, start, end, "error", null, problem);
      error(path, lineNumber, problem);
      return false;
    }
    Label label = matcher.lookup(key, requested);
    switch (label.kind()) {
      case CONTEXT:
        out.write(contextLine(label.display()));
        jsonAnswer(b, start, end, "context", label.display(), null);
        return true;
      case NONE:
        out.write(NONE_LINE);
        jsonAnswer(b, start, end, "none", null, null);
        return true;
      default:
        out.write(NO_MATCH_LINE);
        jsonAnswer(b, start, end, "nomatch", null, null);
        return false;
    }
  }

  /** With --json: the answer for the path {@code b[start, end)}, and the error when it is one. */
  private void jsonAnswer(byte[] b, int start, int end, String answer, String context, String problem) {
    if (report != null) {
      byte[] path = Arrays.copyOfRange(b, start, end);
      report.result(path, answer, context);
      if (problem != null) {
        report.error(path, 0, problem);
      }
    }
  }

  private void error(String path, long lineNumber, String problem) {
    String where = lineNumber > 0 ? "stdin line " + lineNumber : Text.escape(path);
    err.println("relabel: " + where + ": " + problem);
  }

  /**
   * The answer line of {@code context}, made once per context (a batch answers many paths with a
   * few contexts). Not computeIfAbsent with a method reference: that would be the one lambda a
   * one-path lookup links, milliseconds of its start.
   */
  private byte[] contextLine(String context) {
    byte[] line = contextLines.get(context);
    if (line == null) {
      line = answerLine(context);
      contextLines.put(context, line);
    }
    return line;
  }

  private static byte[] answerLine(String answer) {
    return ("\t" + answer + "\n").getBytes(StandardCharsets.ISO_8859_1);
  }
}
