package dev.relabel.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PolicyLoader#systemFileContexts}: finding the policy as libselinux's selinux_config.c does. */
class SystemPolicyTest {
  @TempDir
  Path root;

  private Path config(String content) throws IOException {
    Path config = root.resolve("etc/selinux/config");
    Files.createDirectories(config.getParent());
    Files.write(config, content.getBytes(StandardCharsets.ISO_8859_1));
    return config;
  }

  private Path fileContextsOf(String type) {
    return root.resolve("etc/selinux").resolve(type).resolve("contexts/files/file_contexts");
  }

  private List<String> errors() {
    PolicyException e = assertThrows(PolicyException.class, () -> PolicyLoader.systemFileContexts(root));
    return e.errors().stream().map(PolicyError::toString).collect(Collectors.toList());
  }

  @Test
  void readsSelinuxType() throws Exception {
    config("# This file controls the state of SELinux on the system.\nSELINUX=permissive\nSELINUXTYPE=default\n"
        + "SETLOCALDEFS=0\n");
    assertEquals(fileContextsOf("default"), PolicyLoader.systemFileContexts(root));
  }

  @Test
  void keyIsCaseInsensitive() throws Exception {
    config("selinuxtype=mls\n");
    assertEquals(fileContextsOf("mls"), PolicyLoader.systemFileContexts(root));
    config("SeLinuxType=strict\n");
    assertEquals(fileContextsOf("strict"), PolicyLoader.systemFileContexts(root));
  }

  @Test
  void whitespaceAroundTheValueIsSkipped() throws Exception {
    config("   \tSELINUXTYPE=  default \t\r\n");
    assertEquals(fileContextsOf("default"), PolicyLoader.systemFileContexts(root));
  }

  @Test
  void trailingControlCharactersAreRemoved() throws Exception {
    config("SELINUXTYPE=default\u0001\u007f\n");
    assertEquals(fileContextsOf("default"), PolicyLoader.systemFileContexts(root));
  }

  @Test
  void theLastSettingWins() throws Exception {
    config("SELINUXTYPE=first\nSELINUXTYPE=second\n");
    assertEquals(fileContextsOf("second"), PolicyLoader.systemFileContexts(root));
  }

  @Test
  void commentsAndOtherKeysAreIgnored() throws Exception {
    config("#SELINUXTYPE=commented\n# SELINUXTYPE=commented\nSELINUX=enforcing\nSELINUXTYPE =spaced-key\n"
        + "XSELINUXTYPE=other\nSELINUXTYPE=mls");
    assertEquals(fileContextsOf("mls"), PolicyLoader.systemFileContexts(root));
  }

  @Test
  void noSelinuxTypeMeansTargeted() throws Exception {
    config("SELINUX=enforcing\n");
    assertEquals(fileContextsOf(PolicyLoader.DEFAULT_POLICY_TYPE), PolicyLoader.systemFileContexts(root));
    assertEquals("targeted", PolicyLoader.DEFAULT_POLICY_TYPE);
    config("");
    assertEquals(fileContextsOf("targeted"), PolicyLoader.systemFileContexts(root));
  }

  @Test
  void missingConfig() {
    assertEquals(List.of(root.resolve("etc/selinux/config")
        + ": no SELinux configuration: is a policy installed (for example selinux-policy-default)?"), errors());
  }

  @Test
  void invalidSelinuxType() throws Exception {
    Path config = config("SELINUXTYPE=../../tmp\n");
    assertEquals(List.of(config + ": invalid SELINUXTYPE '../../tmp'"), errors());
    config("SELINUXTYPE=\n");
    assertEquals(List.of(config + ": invalid SELINUXTYPE ''"), errors());
  }

  @Test
  void thisMachinesPolicy() throws Exception {
    Path config = Path.of("/etc/selinux/config");
    if (!Files.isRegularFile(config)) {
      if (dev.relabel.fixtures.oracle.Oracles.inCi()) {
        org.junit.jupiter.api.Assertions.fail("CI=true and /etc/selinux/config is missing (apt-get install selinux-policy-default)");
      }
      org.junit.jupiter.api.Assumptions.abort("no /etc/selinux/config here");
    }
    Path found = PolicyLoader.systemFileContexts(Path.of("/"));
    assertEquals(Path.of("/etc/selinux"), found.getParent().getParent().getParent().getParent());
  }
}
