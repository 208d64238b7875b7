package dev.relabel.policy;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the kernel shows the loaded SELinux policy: selinuxfs, mounted at {@value #MOUNT_POINT} on
 * a running system (a directory under an image's root, or a test's, otherwise). SELinux counts as
 * enabled where its {@code enforce} node exists: one rule for every place that asks (the mounts to
 * skip, chcon's context check, fixfiles onboot's flags), so that they never disagree.
 *
 * @param directory selinuxfs's mount point
 */
public record Selinuxfs(Path directory) {
  public static final String MOUNT_POINT = "/sys/fs/selinux";

  /** The running system's. */
  public static Selinuxfs system() {
    return new Selinuxfs(Path.of(MOUNT_POINT));
  }

  /** Whether SELinux is enabled: the {@code enforce} node exists. */
  public boolean enabled() {
    return Files.exists(node("enforce"));
  }

  /** One of its nodes: {@code enforce}, {@code context}, {@code initial_contexts/NAME}. */
  public Path node(String name) {
    return directory.resolve(name);
  }
}
