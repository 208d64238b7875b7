package dev.relabel.policy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A small file written whole or not at all: its bytes go to a temporary file beside it (mode 0600
 * while it is written), which is synced, given mode 0644 and renamed over the file; then the
 * directory is synced, so that after a crash the file is the old one or the new one, never a part.
 */
public final class WholeFile {
  private WholeFile() {}

  public static void write(Path file, byte[] bytes) throws IOException {
    Path directory = file.toAbsolutePath().getParent();
    Path name = file.getFileName();
    // a name the locale cannot decode has no text to begin the temporary's with
    String prefix = name != null && PathBytes.textNames(name) ? name + "." : "relabel.";
    Path temporary = Files.createTempFile(directory, prefix, ".tmp",
        PosixFilePermissions.asFileAttribute(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)));
    try {
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-r--r--"));
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
    // The rename is durable once the directory is.
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some file systems cannot sync a directory; the file itself is whole either way.
    }
  }
}
