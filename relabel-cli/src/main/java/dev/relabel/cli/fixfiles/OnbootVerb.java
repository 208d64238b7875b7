package dev.relabel.cli.fixfiles;

import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.FailureReport;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.policy.PathBytes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.ZoneId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code relabel onboot}: fixfiles' {@code onboot}, which writes {@code /.autorelabel} for the boot
 * relabel service. The file holds the fixfiles options that service passes on
 * ({@code fixfiles $(cat /.autorelabel) restore}), each followed by a space, without a newline:
 * {@code -F }, {@code -N DATE } for -B, {@code -M }, {@code -T N }; or, when SELinux is not enabled,
 * only {@code -F} and a newline, to force a full relabel.
 */
@Command(
    name = "onboot",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Ask for a relabel of every filesystem at the next boot, as 'fixfiles onboot' does: write"
          + " /.autorelabel with the options the boot relabel will use (-F; -B as '-N DATE', DATE the"
          + " day this system booted, as fixfiles records it from who -b; -M; -T N). When SELinux is"
          + " not enabled (no /sys/fs/selinux/enforce), the file says only '-F', for a full relabel.",
    },
    footer = {"%nExit status: 0; 1 for a usage error or when /.autorelabel cannot be written."})
public final class OnbootVerb extends FixfilesVerb {
  public static final String AUTORELABEL = "/.autorelabel";

  @Override
  protected int run() throws IOException {
    if (since != null) {
      throw usage("-N cannot be used with onboot (fixfiles' usage); -B can");
    }
    StringBuilder flags = new StringBuilder();
    if (force) {
      flags.append("-F ");
    }
    if (sinceBoot) {
      LocalDate bootDay = FixfilesHost.bootTime().atZone(ZoneId.systemDefault()).toLocalDate();
      flags.append("-N ").append(bootDay).append(' ');
    }
    if (bindMounts) {
      flags.append("-M ");
    }
    if (threads.given() != null) {
      flags.append("-T ").append(threads.given()).append(' ');
    }
    if (!host.selinuxfs().enabled()) {
      flags.setLength(0);
      flags.append("-F\n");
    }
    // Written in place, as fixfiles does, not through a temporary renamed over it: on an SELinux
    // system the policy types the file by the name it is created with (refpolicy: etc_runtime_t
    // for /.autorelabel), and a renamed temporary kept its own type (the VM tests' onboot check
    // caught it). A few bytes in one write, then synced.
    Path file = host.file(AUTORELABEL);
    try {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        channel.write(ByteBuffer.wrap(flags.toString().getBytes(StandardCharsets.US_ASCII)));
        channel.force(true);
      }
    } catch (IOException e) {
      throw new Failure("cannot write " + PathBytes.text(file) + ": " + FailureReport.reason(e));
    }
    say("System will relabel on next boot");
    return ExitStatus.OK;
  }
}
