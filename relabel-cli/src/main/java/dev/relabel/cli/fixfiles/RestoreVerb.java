package dev.relabel.cli.fixfiles;

import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.policy.PolicyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code relabel restore}: fixfiles' {@code restore}, labels set right. */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Relabel each PATH and everything below it, as 'fixfiles restore PATH' does (restorecon -R,"
          + " skipping the directories listed in /etc/selinux/fixfiles_exclude_dirs). Without PATH:"
          + " every read-write filesystem that holds labels ('Relabeling MOUNTS', then setfiles over"
          + " them, not crossing mount points), then /tmp's labels cleaned up as 'relabel' does it"
          + " ('Cleaning up labels on /tmp'), as fixfiles' restore does. With -B or -N: only the"
          + " entries modified since the start of that day (by mtime, as fixfiles' find -newermt), on"
          + " every such filesystem.",
      "",
      "Labels use the system's policy; an entry without a label gets the whole context, and"
          + " without -F only the type of a labelled entry changes (customizable types are kept).",
    },
    footer = {
      "%nExit status: 0; 255 when an entry could not be labelled or a PATH is missing; 1 for a usage"
          + " error, or when no filesystem holds labels.",
    })
public final class RestoreVerb extends FixfilesVerb {
  @Parameters(arity = "0..*", paramLabel = "PATH", description = "Files and trees to relabel.")
  private List<String> paths = new ArrayList<>();

  @Override
  protected boolean takesPreviousPolicy() {
    return true;
  }

  @Override
  protected int run() throws IOException, PolicyException {
    return restore("Relabel", false, paths);
  }
}
