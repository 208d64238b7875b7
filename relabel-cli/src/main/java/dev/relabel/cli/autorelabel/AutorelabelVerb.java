package dev.relabel.cli.autorelabel;

import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.cli.fixfiles.FixfilesVerb;
import dev.relabel.cli.fixfiles.OnbootVerb;
import dev.relabel.cli.output.Reporting;
import dev.relabel.nativeio.Kernel;
import dev.relabel.policy.PolicyException;
import dev.relabel.report.FilesystemProgress;
import dev.relabel.systemd.SystemdNotifier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code relabel autorelabel}: the boot-time relabel that {@code /.autorelabel} asks for (written by
 * {@code relabel onboot} or {@code fixfiles onboot}), as Debian's selinux-autorelabel runs
 * {@code fixfiles $(cat /.autorelabel) restore} and reboots. The flag goes only once every
 * filesystem has been labelled without an error, so a relabel cut short (power loss, SIGKILL) runs
 * again, whole, at the next boot.
 */
@Command(
    name = "autorelabel",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "If /.autorelabel exists: relabel every read-write filesystem that holds labels (as 'relabel"
          + " restore' with no PATH) with the options the file holds (fixfiles onboot's: -F, -N DATE,"
          + " -T N, -M), on every core unless it says -T (or RELABEL_THREADS is set), with the"
          + " system's own policy; then remove the file, sync and reboot (systemctl --force"
          + " reboot) unless --no-reboot. Without /.autorelabel it does nothing and exits 0.",
      "",
      "Progress is one plain line per filesystem every few seconds ('Relabeling /home: 41%% (1.2M"
          + " of 2.9M entries, ETA 3m10s)'), fit for a boot console. Under systemd"
          + " ($NOTIFY_SOCKET) the same lines are STATUS= notifications, each with"
          + " EXTEND_TIMEOUT_USEC=, and READY=1 follows a finished relabel: the unit's start"
          + " timeout never stops a relabel that makes progress.",
      "",
      "When the relabel does not finish cleanly (an entry that could not be labelled, a signal),"
          + " /.autorelabel stays and nothing reboots: the next boot, or the next run, starts again.",
      "",
      "SELinux mode: before labelling, the console says which context the relabel runs in. In its"
          + " own domain, relabel_t (relabel's policy module, packaging/selinux): '*** relabel runs in"
          + " CONTEXT: SELinux stays enforcing.' Enforcing anywhere else (the module is not"
          + " installed): SELinux is switched to permissive for this boot, as Debian's and Fedora's"
          + " relabel make it, and the line says so ('*** relabel runs in CONTEXT, not in its own"
          + " SELinux domain relabel_t (its policy module is not installed): SELinux is permissive for"
          + " this relabel boot, ...'); the reboot restores the mode /etc/selinux/config names. A"
          + " refused switch is said too, and the relabel goes on (what the policy refuses is reported"
          + " per entry). Not enforcing: '*** relabel runs in CONTEXT; SELinux is not enforcing.'",
    },
    footer = {
      "%nExit status: 0 (done, or nothing to do); 255 when an entry could not be labelled; 130/143"
          + " after SIGINT/SIGTERM; 1 for a usage error, when no filesystem holds labels or when the"
          + " reboot could not be asked for.",
    })
public final class AutorelabelVerb extends FixfilesVerb {
  private static final Kernel KERNEL = Kernel.linux();

  /** How often a progress line is written while a filesystem is being labelled. */
  private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);

  @Option(names = "--no-reboot",
      description = "Do not reboot after the relabel: /.autorelabel is still removed and the disks synced,"
          + " then exit 0. A switch to permissive (see above) then lasts until the next boot.")
  private boolean noReboot;

  @Option(names = "--progress-interval", paramLabel = "SECONDS", hidden = true, defaultValue = "5",
      description = "Seconds between progress lines (tests).")
  private double progressSeconds;

  private FilesystemProgress progressLines;
  private final Optional<SystemdNotifier> notifier = SystemdNotifier.fromEnvironment();

  @Override
  protected void prepare(Reporting reporting) {
    // Each line at once: a boot console shows it as it comes.
    progressLines = new FilesystemProgress(line -> {
      say(line);
      output.flush();
    }, notifier,
        Duration.ofMillis(Math.max(1, (long) (progressSeconds * 1000))));
    reporting.perFilesystem(progressLines);
  }

  /**
   * Not at boot: Debian's selinux-autorelabel runs fixfiles' restore, and so genhomedircon, from
   * initrc_t; relabel runs in relabel_t, whose policy module lets it label files, not build the
   * policy (semodule), so the users' home entries are the policy's as last built.
   */
  @Override
  protected boolean runsGenhomedircon() {
    return false;
  }

  /**
   * Not at boot: fixfiles' restore would remove /tmp's unlabelled sockets and FIFOs and relabel
   * its unlabelled entries after the relabel, which relabel_t's policy module does not allow (it
   * labels files; it deletes none).
   */
  @Override
  protected boolean cleansUpTmpLabels() {
    return false;
  }

  /** Its own lines per filesystem (and systemd's status) say how far it is, not setfiles' -p text. */
  @Override
  protected boolean setfilesTextByDefault() {
    return false;
  }

  @Override
  protected int run() throws IOException, PolicyException {
    try (FilesystemProgress lines = progressLines) {
      return relabel();
    }
  }

  private int relabel() throws IOException, PolicyException {
    Path flag = host.file(OnbootVerb.AUTORELABEL);
    if (!Files.isRegularFile(flag, LinkOption.NOFOLLOW_LINKS)) {
      notifier.ifPresent(SystemdNotifier::ready);
      return ExitStatus.OK;
    }
    String asked = Files.readString(flag, StandardCharsets.ISO_8859_1).strip();
    // -T: the command line's, else the flag file's, else RELABEL_THREADS, else 0 (FixfilesVerb's default).
    applyFlagOptions(asked);
    say("*** Warning -- SELinux relabel is required (" + flag + (asked.isEmpty() ? "" : ": " + asked) + ").");
    say("*** Relabeling could take a very long time, depending on file system size and speed of hard drives.");
    stayEnforcingOnlyInOwnDomain();
    notifier.ifPresent(n -> n.status("Relabeling all filesystems"));
    int status = restore("Relabel", false, List.of());
    if (stopped()) {
      return status;
    }
    if (status != ExitStatus.OK) {
      say("*** The relabel did not finish cleanly: " + flag + " is kept, and the next boot relabels again.");
      return status;
    }
    Files.delete(flag);
    KERNEL.syncAll();
    say("*** Relabel finished; " + flag + " removed.");
    notifier.ifPresent(SystemdNotifier::ready);
    if (noReboot) {
      return ExitStatus.OK;
    }
    notifier.ifPresent(SystemdNotifier::stopping);
    return reboot();
  }

  /**
   * Says on the console which context the relabel runs in. Enforcing, outside relabel_t:
   * permissive for this boot, said too. A refused switch is said as well, and the relabel goes on
   * (whatever the policy refuses is then reported per entry).
   */
  private void stayEnforcingOnlyInOwnDomain() throws IOException {
    BootEnforcement enforcement = BootEnforcement.of(host);
    String domain = enforcement.context().orElse("an unknown context");
    if (!enforcement.enforcing()) {
      enforcement.context().ifPresent(context -> say("*** relabel runs in " + context + "; SELinux is not enforcing."));
      return;
    }
    if (enforcement.inOwnDomain()) {
      say("*** relabel runs in " + domain + ": SELinux stays enforcing.");
      return;
    }
    try {
      enforcement.setPermissive();
      say("*** relabel runs in " + domain + ", not in its own SELinux domain " + BootEnforcement.OWN_DOMAIN
          + " (its policy module is not installed): SELinux is permissive for this relabel boot, as"
          + " Debian's and Fedora's relabel make it; the reboot restores the mode /etc/selinux/config names.");
    } catch (IOException e) {
      say("*** relabel runs in " + domain + ", not in " + BootEnforcement.OWN_DOMAIN
          + ", and could not switch SELinux to permissive (" + e.getMessage() + "): entries the policy"
          + " refuses to relabel are reported.");
    }
  }

  /** The options fixfiles onboot writes: -F, -N DATE (its -B), -M, -T N; others are ignored, said. */
  private void applyFlagOptions(String asked) {
    String[] tokens = asked.isEmpty() ? new String[0] : asked.split("\\s+");
    for (int i = 0; i < tokens.length; i++) {
      switch (tokens[i]) {
        case "-F" -> force = true;
        case "-B" -> sinceBoot = true;
        case "-N" -> {
          if (i + 1 < tokens.length) {
            since = tokens[++i];
          }
        }
        case "-T" -> {
          if (i + 1 < tokens.length) {
            String value = tokens[++i];
            if (threads.given() == null) {
              threads.give(value);
            }
          }
        }
        case "-M" -> bindMounts = true;
        default -> say("autorelabel: ignoring '" + tokens[i] + "' in " + OnbootVerb.AUTORELABEL);
      }
    }
    // fixfiles -B -M onboot writes both; its restore then labels what changed since the date and
    // leaves -M aside. A usage error here would fail every boot's relabel, the flag kept.
    if (bindMounts && (since != null || sinceBoot)) {
      say("autorelabel: ignoring -M in " + OnbootVerb.AUTORELABEL + ": it relabels whole filesystems, not with -N");
      bindMounts = false;
    }
  }

  private int reboot() throws IOException {
    say("*** Rebooting.");
    output.flush();
    try {
      Process process = new ProcessBuilder("systemctl", "--force", "reboot").inheritIO().start();
      if (process.waitFor() == 0) {
        return ExitStatus.OK;
      }
    } catch (IOException e) {
      // reported below
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new Failure("the relabel is done, but 'systemctl --force reboot' failed: reboot by hand");
  }
}
