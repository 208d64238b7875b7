package dev.relabel.cli.chcon;

import dev.relabel.cli.common.FailureReport;
import dev.relabel.policy.Selinuxfs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Optional;

/**
 * The running kernel's word on a whole CONTEXT, asked before anything is changed, as chcon asks it
 * with libselinux's {@code security_check_context} when SELinux is enabled: the context and its
 * NUL written to selinuxfs's {@code context} node, which refuses one the loaded policy does not
 * define (EINVAL). Without it, each file would be tried and refused in turn (measured on the
 * SELinux VM: chcon says {@code invalid context: 'CONTEXT': Invalid argument} once, exits 1 and
 * touches nothing). Field edits and --reference are not asked, as in chcon: their files are.
 */
final class KernelContextCheck {
  private final Selinuxfs selinuxfs;

  KernelContextCheck(Selinuxfs selinuxfs) {
    this.selinuxfs = selinuxfs;
  }

  static KernelContextCheck system() {
    return new KernelContextCheck(Selinuxfs.system());
  }

  /**
   * Why the kernel refuses {@code context} (the C library's words for its error); empty when it
   * takes it, or when SELinux is not enabled (no {@code enforce} node: there is no one to ask).
   */
  Optional<String> refusal(byte[] context) {
    if (!selinuxfs.enabled()) {
      return Optional.empty();
    }
    try (FileChannel channel = FileChannel.open(selinuxfs.node("context"), StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(Arrays.copyOf(context, context.length + 1)));
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(FailureReport.reason(e));
    }
  }
}
