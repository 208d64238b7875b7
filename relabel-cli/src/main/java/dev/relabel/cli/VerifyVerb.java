package dev.relabel.cli;

import dev.relabel.spec.PolicyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code relabel verify}: fixfiles' {@code verify}, a dry run that lists every label that is wrong.
 * fixfiles runs check and verify alike ({@code restore Verify -n} with {@code -v}); only the
 * word they announce differs.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
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
final class VerifyVerb extends FixfilesVerb {
  @Parameters(arity = "0..*", paramLabel = "PATH", description = "Files and trees to verify.")
  List<String> paths = new ArrayList<>();

  @Override
  boolean verbose() {
    return true;
  }

  @Override
  int run() throws IOException, PolicyException {
    return restore("Verify", true, paths);
  }
}
