package dev.relabel.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CustomizableTypes}: the policy's {@code contexts/customizable_types}, beside file_contexts' directory. */
class CustomizableTypesTest {
  @TempDir
  Path policy;

  private Path fileContexts() throws IOException {
    Path fileContexts = policy.resolve("contexts/files/file_contexts");
    Files.createDirectories(fileContexts.getParent());
    return fileContexts;
  }

  @Test
  void readsEachTypeInOrderSkippingCommentsAndBlankLines() throws IOException {
    Path fileContexts = fileContexts();
    Files.writeString(policy.resolve("contexts/customizable_types"),
        "# types restorecon keeps\nmount_loopback_t\n\n  public_content_t \r\nsvirt_image_t\nmount_loopback_t",
        StandardCharsets.ISO_8859_1);
    assertEquals(List.of("mount_loopback_t", "public_content_t", "svirt_image_t"),
        List.copyOf(CustomizableTypes.forFileContexts(fileContexts)));
  }

  @Test
  void noFileIsNoType() throws IOException {
    assertEquals(Set.of(), CustomizableTypes.forFileContexts(fileContexts()));
  }

  @Test
  void anUnreadableFileIsAnError() throws IOException {
    Path fileContexts = fileContexts();
    Files.createDirectory(policy.resolve("contexts/customizable_types"));
    assertThrows(IOException.class, () -> CustomizableTypes.forFileContexts(fileContexts));
  }
}
