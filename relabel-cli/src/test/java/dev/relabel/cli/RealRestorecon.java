package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.AttrTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Debian's restorecon as an oracle on a machine where SELinux is not enabled. restorecon exits 0
 * at once, silently, when {@code is_selinux_enabled()} says no; a one-line library that says yes,
 * compiled here with gcc into the scratch directory (never committed) and put in front with
 * {@code LD_PRELOAD}, makes it label as it would on an SELinux system. restorecon's own call goes
 * through the dynamic linker, so the shim replaces it; nothing else restorecon does needs the
 * kernel: it reads the policy from /etc/selinux and writes {@code security.selinux} as any xattr.
 * One thing the shim changes: believing SELinux enabled, restorecon skips every mount without
 * {@code seclabel}, which on a machine without SELinux is every mount; that skips a mount point
 * given itself (such as {@code /}), never an entry beneath one, so the trees compared are not mount
 * points.
 */
public final class RealRestorecon {
  public static final Path RESTORECON = Path.of("/usr/sbin/restorecon");
  private static final String SHIM = "int is_selinux_enabled(void) { return 1; }\n";

  private final Path shim;
  private final Path scratch;

  private RealRestorecon(Path shim, Path scratch) {
    this.shim = shim;
    this.scratch = scratch;
  }

  /**
   * The oracle, its shim built in {@code scratch}; skips outside CI, fails in CI, when restorecon,
   * gcc or the reference policy is missing.
   */
  public static RealRestorecon build(Path scratch) throws IOException, InterruptedException {
    AttrTrees.requireTools(true);
    String missing = null;
    if (!Files.isExecutable(RESTORECON)) {
      missing = RESTORECON + " is missing (apt-get install policycoreutils)";
    } else if (!Files.isExecutable(Path.of("/usr/bin/gcc"))) {
      missing = "gcc is missing (apt-get install gcc libc6-dev)";
    }
    if (missing != null) {
      AttrTrees.unavailable(missing);
    }
    Path source = Files.writeString(scratch.resolve("selinux-enabled.c"), SHIM);
    Path library = scratch.resolve("libselinux-enabled.so");
    AttrTrees.check(List.of("gcc", "-shared", "-fPIC", "-o", library.toString(), source.toString()), scratch);
    return new RealRestorecon(library, scratch);
  }

  /** Runs {@code restorecon ARGS} believing SELinux is enabled. */
  public AttrTrees.Run run(List<String> args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(RESTORECON.toString());
    command.addAll(args);
    return AttrTrees.run(command, scratch, null, Map.of("LD_PRELOAD", shim.toString()));
  }

  /** Whether the shim works: restorecon -n -v on an unlabelled file says it would relabel it. */
  public void selfCheck(Path unlabelled) throws IOException, InterruptedException {
    AttrTrees.Run run = run(List.of("-n", "-v", unlabelled.toString()));
    if (!run.out().startsWith("Would relabel ")) {
      fail("restorecon with the is_selinux_enabled shim did not label: " + run);
    }
  }
}
