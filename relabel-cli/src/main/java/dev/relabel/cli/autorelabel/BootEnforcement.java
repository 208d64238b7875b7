package dev.relabel.cli.autorelabel;

import dev.relabel.cli.fixfiles.FixfilesHost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the boot relabel may stay enforcing. It may when it runs in its own SELinux domain,
 * {@code relabel_t} (relabel's policy module, packaging/selinux, which holds what setfiles_t holds
 * to label files). Anywhere else (the module is not installed: systemd ran the JVM as
 * {@code unconfined_java_t}, or pid 1 itself is mislabelled) an enforcing policy may refuse the
 * relabel what it needs, so the machine is switched to permissive for this boot, as Debian's and
 * Fedora's selinux-autorelabel do for every relabel boot; the reboot restores the mode
 * {@code /etc/selinux/config} names.
 *
 * <p>This process's context is read once, when the check is made ({@link #of}): it does not change
 * during a run, and the console lines name the one the decision was taken on.
 */
final class BootEnforcement {
  static final String OWN_DOMAIN = "relabel_t";

  /** {@code /sys/fs/selinux/enforce} of the host. */
  private final Path enforceFile;
  /** This process's context, from {@code /proc/self/attr/current}, read once. */
  private final Optional<String> context;

  /**
   * @param enforceFile {@code /sys/fs/selinux/enforce} of the host
   * @param currentContext {@code /proc/self/attr/current}: this process's context, read now
   */
  BootEnforcement(Path enforceFile, Path currentContext) {
    this.enforceFile = enforceFile;
    this.context = read(currentContext);
  }

  static BootEnforcement of(FixfilesHost host) {
    return new BootEnforcement(host.selinuxfs().node("enforce"), host.file("/proc/self/attr/current"));
  }

  /** Whether SELinux is enabled and enforcing. */
  boolean enforcing() throws IOException {
    try {
      return Files.readString(enforceFile, StandardCharsets.US_ASCII).strip().equals("1");
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /**
   * This process's context (the kernel's form, without its trailing NUL), if the kernel has one
   * and lets it be read: a domain the policy does not let read its own context is not relabel_t.
   */
  Optional<String> context() {
    return context;
  }

  private static Optional<String> read(Path currentContext) {
    try {
      String context = Files.readString(currentContext, StandardCharsets.ISO_8859_1);
      int end = context.indexOf('\0');
      context = (end < 0 ? context : context.substring(0, end)).strip();
      return context.isEmpty() ? Optional.empty() : Optional.of(context);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Whether this process runs in {@code relabel_t} (the type, the third field of its context). */
  boolean inOwnDomain() {
    return context.map(context -> {
      String[] fields = context.split(":", 4);
      return fields.length >= 3 && fields[2].equals(OWN_DOMAIN);
    }).orElse(false);
  }

  /** Switches SELinux to permissive (writes 0 to {@code /sys/fs/selinux/enforce}). */
  void setPermissive() throws IOException {
    Files.writeString(enforceFile, "0", StandardCharsets.US_ASCII);
  }
}
