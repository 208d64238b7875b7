package dev.relabel.cli.chcon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.policy.Selinuxfs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What is asked of selinuxfs, in a directory standing for it (the kernel's own refusal of a context
 * the policy does not define is checked on the SELinux VM: kernel-checks' chcon cases).
 */
class KernelContextCheckTest {
  @TempDir Path selinuxfs;
  private static final byte[] CONTEXT = "system_u:object_r:etc_t:s0".getBytes(StandardCharsets.US_ASCII);

  @Test
  void withoutSelinuxNothingIsAsked() throws Exception {
    Path node = Files.writeString(selinuxfs.resolve("context"), "");
    assertEquals(Optional.empty(), new KernelContextCheck(new Selinuxfs(selinuxfs)).refusal(CONTEXT));
    assertEquals(0, Files.size(node));
  }

  @Test
  void theContextAndItsNulAreWrittenToTheContextNode() throws Exception {
    Files.writeString(selinuxfs.resolve("enforce"), "1");
    Path node = Files.writeString(selinuxfs.resolve("context"), "");
    assertEquals(Optional.empty(), new KernelContextCheck(new Selinuxfs(selinuxfs)).refusal(CONTEXT));
    assertEquals("system_u:object_r:etc_t:s0\0", Files.readString(node, StandardCharsets.US_ASCII));
  }

  @Test
  void aNodeThatCannotBeWrittenIsTheRefusalsReason() throws Exception {
    Files.writeString(selinuxfs.resolve("enforce"), "1");
    assertEquals(Optional.of("No such file or directory"), new KernelContextCheck(new Selinuxfs(selinuxfs)).refusal(CONTEXT));
    Files.createDirectory(selinuxfs.resolve("context"));
    assertEquals(Optional.of("Is a directory"), new KernelContextCheck(new Selinuxfs(selinuxfs)).refusal(CONTEXT));
  }
}
