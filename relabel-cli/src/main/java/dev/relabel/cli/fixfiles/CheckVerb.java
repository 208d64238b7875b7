package dev.relabel.cli.fixfiles;

import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.policy.PolicyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code relabel check} and {@code relabel verify}: fixfiles' {@code check} and {@code verify},
 * one dry run that lists every label that is wrong. fixfiles runs them alike ({@code restore
 * Check -n} or {@code restore Verify -n}, with {@code -v}); only the word they announce differs,
 * and here it is the verb's name. {@link Verify} only gives {@code verify} its help text.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Report, without changing anything, every label under each PATH (or, without PATH, on every"
          + " read-write filesystem that holds labels: 'Checking MOUNTS') that differs from the"
          + " system's policy: 'Would relabel PATH from OLD to NEW', as 'fixfiles check' does. -B and"
          + " -N limit it to the entries modified since then; fixfiles_exclude_dirs are skipped"
          + " as in restore.",
    },
    footer = {
      "%nExit status: 0; 255 when an entry's label cannot be read or a PATH is missing; 1 for a"
          + " usage error, or when no filesystem holds labels.",
    })
public class CheckVerb extends FixfilesVerb {
  @Parameters(arity = "0..*", paramLabel = "PATH", description = "Files and trees to ${COMMAND-NAME}.")
  private List<String> paths = new ArrayList<>();

  /** {@code relabel verify}: the same verb, announcing "Verifying MOUNTS". */
  @Command(
      name = "verify",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      resourceBundle = ThreadsOption.BUNDLE,
      sortOptions = false,
      usageHelpWidth = 100,
      description = {
        "Report, without changing anything, every label under each PATH (or, without PATH, on every"
            + " read-write filesystem that holds labels: 'Verifying MOUNTS') that differs from the"
            + " system's policy: 'Would relabel PATH from OLD to NEW', as 'fixfiles verify' does. -B and"
            + " -N limit it to the entries modified since then; fixfiles_exclude_dirs are skipped"
            + " as in restore.",
      },
      footer = {
        "%nExit status: 0; 255 when an entry's label cannot be read or a PATH is missing; 1 for a"
            + " usage error, or when no filesystem holds labels.",
      })
  public static final class Verify extends CheckVerb {}

  @Override
  protected boolean verbose() {
    return true;
  }

  @Override
  protected boolean dryRun() {
    return true;
  }

  @Override
  protected boolean takesPreviousPolicy() {
    return true;
  }

  /** fixfiles' {@code restore Check} or {@code restore Verify}: the verb's name, capitalized. */
  @Override
  protected int run() throws IOException, PolicyException {
    String name = spec.name();
    return restore(Character.toUpperCase(name.charAt(0)) + name.substring(1), true, paths);
  }
}
