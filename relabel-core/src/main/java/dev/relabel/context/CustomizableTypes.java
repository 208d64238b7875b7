package dev.relabel.context;

import dev.relabel.policy.SmallFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/** A policy's {@code contexts/customizable_types}: types restorecon keeps unless told {@code -F}. */
public final class CustomizableTypes {
  private CustomizableTypes() {}

  /**
   * The types listed in the {@code customizable_types} of the policy whose {@code file_contexts}
   * is given ({@code POLICY/contexts/files/file_contexts} → {@code POLICY/contexts/customizable_types});
   * empty when there is no such file.
   */
  public static Set<String> forFileContexts(Path fileContexts) throws IOException {
    Path contexts = fileContexts.toAbsolutePath().getParent();
    if (contexts == null || contexts.getParent() == null) {
      return Set.of();
    }
    Path file = contexts.getParent().resolve("customizable_types");
    try {
      Set<String> types = new LinkedHashSet<>();
      String text = new String(SmallFile.read(file), StandardCharsets.ISO_8859_1);
      for (String line : text.split("\n", -1)) {
        String type = line.strip();
        if (!type.isEmpty() && !type.startsWith("#")) {
          types.add(type);
        }
      }
      return types;
    } catch (NoSuchFileException e) {
      return Set.of();
    }
  }
}
