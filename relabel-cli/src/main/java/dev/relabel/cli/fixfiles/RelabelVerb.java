package dev.relabel.cli.fixfiles;

import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.policy.PolicyException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code relabel relabel}: fixfiles' {@code relabel}, every labelled filesystem, with /tmp's clean-up. */
@Command(
    name = "relabel",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Relabel every read-write filesystem that holds labels, as 'fixfiles relabel' does: filesystems"
          + " marked seclabel in /proc/self/mountinfo (where SELinux is not enabled, so none is"
          + " marked: ext2/3/4, xfs, btrfs, jfs and gfs2 mounts without context=), skipping the"
          + " directories listed in /etc/selinux/fixfiles_exclude_dirs and not crossing mount points.",
      "",
      "First it asks whether to empty /tmp, whose files may be labelled wrongly (answer y on standard"
          + " input); -f empties it without asking. After the relabel, as fixfiles does, it removes"
          + " /tmp/gconfd-*, /tmp/pulse-* and /tmp/orbit-*, removes the sockets and FIFOs in /tmp the"
          + " kernel would call unlabelled, and gives every other entry of /tmp, /var/tmp and /var/run"
          + " (and /var/lib/debug) that has no label, or the policy's unlabelled or file type, the"
          + " label of its top directory. With -B only the entries modified since boot are"
          + " relabelled, and /tmp is not cleaned up afterwards.",
      "",
      "Use --root to act on a system installed under another directory.",
    },
    footer = {
      "%nExit status: 0; 255 when an entry could not be labelled; 1 for a usage error, or when no"
          + " filesystem holds labels.",
    })
public final class RelabelVerb extends FixfilesVerb {
  public static final String PROMPT = "\n"
      + "    Files in the /tmp directory may be labeled incorrectly, this command\n"
      + "    can remove all files in /tmp.  If you choose to remove files from /tmp,\n"
      + "    a reboot will be required after completion.\n"
      + "\n"
      + "    Do you wish to clean out the /tmp directory [N]? ";

  @Option(names = "-f", description = "Empty /tmp without asking (fixfiles' -f).")
  private boolean emptyTmp;

  @Override
  protected int run() throws IOException, PolicyException {
    if (since != null) {
      throw usage("-N cannot be used with relabel (fixfiles' usage); -B can");
    }
    boolean full = emptyTmp;
    if (!full) {
      output.info(PROMPT.getBytes(charset));
      output.flush();
      String answer = new BufferedReader(new InputStreamReader(io.in(), charset)).readLine();
      full = answer != null && (answer.equals("y") || answer.equals("Y"));
    }
    if (full) {
      say("Cleaning out /tmp");
      tmpCleanup().empty();
    }
    // then /tmp's labels are cleaned up, as after any whole-system restore (not with -B)
    return restore("Relabel", false, java.util.List.of());
  }
}
