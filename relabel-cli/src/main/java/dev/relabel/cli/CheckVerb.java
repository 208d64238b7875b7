package dev.relabel.cli;

import dev.relabel.spec.PolicyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code relabel check}: fixfiles' {@code check}, a dry run that lists every label that is wrong.
 * fixfiles runs check and verify alike ({@code restore Check -n} with {@code -v}); only the
 * word they announce differs.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
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
final class CheckVerb extends FixfilesVerb {
  @Parameters(arity = "0..*", paramLabel = "PATH", description = "Files and trees to check.")
  List<String> paths = new ArrayList<>();

  @Override
  boolean verbose() {
    return true;
  }

  @Override
  int run() throws IOException, PolicyException {
    return restore("Check", true, paths);
  }
}
