package dev.relabel.cli.lookup;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.cli.Cli;
import static dev.relabel.cli.Cli.latin1;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.cli.Cli.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code relabel lookup} on Debian's real policy (package selinux-policy-default). The expected
 * answers are matchpathcon's (libselinux 3.4), except that it prints {@code <<none>>} where no
 * spec matches. Outside CI a missing policy skips these tests; with {@code CI=true} it fails them.
 */
class DebianPolicyLookupTest {
  static final Path DEBIAN_DIR = Path.of("/etc/selinux/default/contexts/files");
  static final Path DEBIAN = DEBIAN_DIR.resolve("file_contexts");

  @BeforeAll
  static void requireDebianPolicy() {
    if (!Files.isRegularFile(DEBIAN)) {
      String missing = DEBIAN + " is missing (apt-get install selinux-policy-default)";
      AttrTrees.unavailable(missing);
    }
  }

  @Test
  void pathsGetMatchpathconsAnswers() {
    Result r = Cli.run("lookup", "-f", DEBIAN.toString(),
        "/etc/passwd", "/etc/shadow", "/bin/bash", "/usr/bin/ls", "/home/alice/.ssh/authorized_keys", "/tmp/x",
        "/dev/null", "/var/log/messages", "/root/.bashrc", "/proc/1", "/sys/kernel", "/lost+found", "/var/run/x");
    assertEquals(List.of(
        "/etc/passwd\tsystem_u:object_r:etc_t:s0",
        "/etc/shadow\tsystem_u:object_r:shadow_t:s0",
        "/bin/bash\tsystem_u:object_r:shell_exec_t:s0",
        "/usr/bin/ls\tsystem_u:object_r:bin_t:s0",
        "/home/alice/.ssh/authorized_keys\tunconfined_u:object_r:ssh_home_t:s0", // from .homedirs
        "/tmp/x\t<<none>>",
        "/dev/null\tsystem_u:object_r:null_device_t:s0",
        "/var/log/messages\tsystem_u:object_r:var_log_t:s0",
        "/root/.bashrc\tunconfined_u:object_r:user_home_t:s0",
        "/proc/1\t<<none>>",
        "/sys/kernel\tsystem_u:object_r:sysfs_t:s0",
        "/lost+found\tsystem_u:object_r:lost_found_t:s0",
        "/var/run/x\t<<none>>"), // /var/run is /run by .subs_dist
        r.lines(), r::toString);
    assertEquals("", r.err());
    assertEquals(0, r.status());
  }

  @Test
  void typesSelectTypedSpecs() {
    assertEquals(List.of("/dev/sda\tsystem_u:object_r:fixed_disk_device_t:s0"),
        Cli.run("lookup", "-f", DEBIAN.toString(), "-m", "blk_file", "/dev/sda").lines());
    assertEquals(List.of("/dev/sda\tsystem_u:object_r:device_t:s0"),
        Cli.run("lookup", "-f", DEBIAN.toString(), "-m", "chr_file", "/dev/sda").lines());
    Result r = Cli.runWithStdin(latin1("dir\t/tmp\nlnk_file\t/var/run\nfile\t/var/run\nrelative/path\n/a\u00ff\r\n"),
        "lookup", "-f", DEBIAN.toString(), "--stdin");
    assertEquals(List.of(
        "/tmp\tsystem_u:object_r:tmp_t:s0",
        "/var/run\tsystem_u:object_r:var_run_t:s0",
        "/var/run\tsystem_u:object_r:default_t:s0",
        "relative/path\t<<nomatch>>",
        "/a\u00ff\r\tsystem_u:object_r:default_t:s0"), r.lines(), r::toString);
    assertEquals(1, r.status());
  }

  @Test
  void theSystemPolicyIsFoundUnderRoot(@TempDir Path root) throws IOException {
    Path files = Files.createDirectories(root.resolve("etc/selinux/default/contexts/files"));
    for (String name : List.of("file_contexts", "file_contexts.homedirs", "file_contexts.subs_dist")) {
      if (Files.exists(DEBIAN_DIR.resolve(name))) {
        Files.copy(DEBIAN_DIR.resolve(name), files.resolve(name));
      }
    }
    Files.writeString(root.resolve("etc/selinux/config"), "SELINUX=permissive\nSELINUXTYPE=default\n");
    Result r = Cli.run("lookup", "-r", root.toString(), root + "/etc/shadow", root + "/var/run/x", root.toString());
    assertEquals(List.of(
        root + "/etc/shadow\tsystem_u:object_r:shadow_t:s0",
        root + "/var/run/x\t<<none>>",
        root + "\tsystem_u:object_r:root_t:s0"), r.lines(), r::toString);
    assertEquals(0, r.status());
  }
}
