package dev.relabel.cli.setfiles;

import dev.relabel.cli.common.Getopt;
import dev.relabel.walk.DirectoryDigests;
import dev.relabel.walk.RelabelOptions;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options restorecon shares with setfiles, declared once: restorecon is setfiles.c under
 * another name, and these letters mean the same under both ({@code @Mixin SetfilesFlags flags;}).
 * What differs stays data: a description worded per verb says {@code ${COMMAND-NAME}} or reads
 * {@code relabel.VERB.KEY} from the verbs' bundle ({@code Descriptions.properties}), and each verb
 * places these options in its help with {@link dev.relabel.cli.common.HelpOrder}. Options of one
 * verb only, or whose meaning or getopt form differs ({@code -r}, {@code -R}, {@code -x}, and
 * {@code -v}, which restorecon takes more than once), stay in that verb.
 */
public final class SetfilesFlags implements Getopt.Options {
  @Option(names = "-F", description = "Force: set the whole context (user, role, type, range), also over a customizable type.")
  private boolean force;

  @Option(names = "-n", description = "Change nothing; with -v, print what would change.")
  private boolean dryRun;

  @Option(names = "-e", paramLabel = "DIR",
      description = "Skip the directory DIR (a full path) and everything below it; may be repeated."
          + " A DIR that does not exist is ignored with a warning, as ${COMMAND-NAME} does.")
  private List<String> excludes = new ArrayList<>();

  @Option(names = "-i", description = "A PATH that does not exist is not an error.")
  private boolean ignoreMissing;

  @Option(names = "-m", description = "Do not skip the mounts without seclabel (only skipped when SELinux is enabled).")
  private boolean noSeclabelCheck;

  @Option(names = "-f", paramLabel = "FILE",
      description = "Read the paths from FILE ('-' for standard input), one per line, instead of PATH arguments.")
  private String inputFile;

  @Option(names = "-s", descriptionKey = "standardInput")
  private boolean standardInput;

  @Option(names = "-0", descriptionKey = "nulSeparated")
  private boolean nulSeparated;

  @Option(names = "-W", descriptionKey = "warnNoMatch")
  private boolean warnNoMatch;

  @Option(names = "-D", descriptionKey = "digests")
  private boolean digests;

  @Option(names = "-I", description = "As -D, but check every entry whatever its directory's digest says.")
  private boolean ignoreDigests;

  @Option(names = "-q", description = "No effect (deprecated in ${COMMAND-NAME}, kept for scripts).")
  private boolean quiet;

  @Option(names = "-o", paramLabel = "FILE", hidden = true,
      description = "No effect but a warning, as in ${COMMAND-NAME} ('-o option no longer supported').")
  private List<String> outFiles = new ArrayList<>();

  /** Accepted by setfiles and restorecon 3.4 but refused by both verbs (each says why). */
  @Option(names = "-l", hidden = true)
  private boolean syslog;

  /**
   * The quick path's letters of these options ({@link Getopt}): each flag and {@code -f FILE} once,
   * as picocli takes them ({@code -f -} is standard input); {@code -e DIR} any number of times.
   * {@code -o} and {@code -l} are picocli's path's.
   */
  @Override
  public boolean option(char letter, Getopt getopt) {
    return switch (letter) {
      case 'F' -> !force && (force = true);
      case 'n' -> !dryRun && (dryRun = true);
      case 'i' -> !ignoreMissing && (ignoreMissing = true);
      case 'm' -> !noSeclabelCheck && (noSeclabelCheck = true);
      case 'W' -> !warnNoMatch && (warnNoMatch = true);
      case 'D' -> !digests && (digests = true);
      case 'I' -> !ignoreDigests && (ignoreDigests = true);
      case 'q' -> !quiet && (quiet = true);
      case 'e' -> Getopt.add(getopt.argument(), excludes);
      case 'f' -> inputFile == null && (inputFile = getopt.argumentOrDash()) != null;
      case 's' -> !standardInput && (standardInput = true);
      case '0' -> !nulSeparated && (nulSeparated = true);
      default -> false;
    };
  }

  /** {@code -n}. */
  public boolean dryRun() {
    return dryRun;
  }

  /** {@code -e DIR}s, as given. */
  public List<String> excludes() {
    return excludes;
  }

  /** {@code -f FILE}; null without it. */
  public String inputFile() {
    return inputFile;
  }

  /** Whether the paths come from a list ({@code -f FILE} or {@code -s}), not from PATH arguments. */
  public boolean readsList() {
    return inputFile != null || standardInput;
  }

  /** {@code -s}. */
  public boolean standardInput() {
    return standardInput;
  }

  /** {@code -0}. */
  public boolean nulSeparated() {
    return nulSeparated;
  }

  /** {@code -W}. */
  public boolean warnNoMatch() {
    return warnNoMatch;
  }

  /** {@code -o FILE}s, each only warned about. */
  public List<String> outFiles() {
    return outFiles;
  }

  /** {@code -l}. */
  public boolean syslog() {
    return syslog;
  }

  /** The engine's options these flags ask for ({@code -F -n -i -m -W -D -I}); each verb adds its own. */
  public RelabelOptions engine() {
    return RelabelOptions.defaults()
        .withForce(force)
        .withDryRun(dryRun)
        .withIgnoreMissing(ignoreMissing)
        .withCheckSeclabel(!noSeclabelCheck)
        .withReportUnusedSpecs(warnNoMatch)
        .withDigests(ignoreDigests ? DirectoryDigests.REFRESH
            : digests ? DirectoryDigests.SKIP_UNCHANGED : DirectoryDigests.OFF);
  }
}
