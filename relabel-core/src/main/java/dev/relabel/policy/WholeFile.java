package dev.relabel.policy;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A file written whole or not at all: what it will hold goes to a hidden temporary file beside it
 * ({@code .NAME.*.tmp}, mode 0600 while it is written), which is synced, given the file's mode and
 * renamed over the file; then the directory is synced, so that after a crash the file is the old
 * one or the new one, never a part. Not for a file whose label the policy derives from its name: the
 * renamed temporary keeps the label it was created with (why {@code relabel onboot} writes
 * /.autorelabel in place).
 */
public final class WholeFile {
  /** rw-r--r--: a file anyone may read. */
  public static final Set<PosixFilePermission> READABLE = PosixFilePermissions.fromString("rw-r--r--");
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  /** What the file will hold. */
  @FunctionalInterface
  public interface Body<T> {
    /**
     * Writes the contents to {@code out}, which it leaves open (the file is synced before it is
     * closed); {@code temporary} is where they go, for a writer that must not read its own output
     * ({@code tar -C DIR} with OUT in DIR).
     */
    T writeTo(OutputStream out, Path temporary) throws IOException;
  }

  private WholeFile() {}

  /** {@code bytes} as the whole of {@code file}, mode 0644. */
  public static void write(Path file, byte[] bytes) throws IOException {
    write(file, READABLE, (out, temporary) -> {
      out.write(bytes);
      return null;
    });
  }

  /**
   * What {@code body} writes as the whole of {@code file}, with mode {@code mode}; what it returns.
   * A temporary that cannot be made (the directory missing or not writable) is an exception about
   * {@code file}, as the user named it.
   */
  public static <T> T write(Path file, Set<PosixFilePermission> mode, Body<T> body) throws IOException {
    Path absolute = file.toAbsolutePath();
    Path directory = absolute.getParent();
    Path name = absolute.getFileName();
    // a name the locale cannot decode has no text to begin the temporary's with
    String prefix = name != null && PathBytes.textNames(name) ? "." + name + "." : ".relabel.";
    Path temporary;
    try {
      temporary = Files.createTempFile(directory, prefix, ".tmp", OWNER_ONLY);
    } catch (FileSystemException e) {
      throw PathBytes.as(e, file);
    }
    boolean renamed = false;
    T result;
    try {
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
        result = body.writeTo(out, temporary);
        out.flush();
        channel.force(true);
      }
      Files.setPosixFilePermissions(temporary, mode);
      Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      renamed = true;
    } finally {
      if (!renamed) {
        Files.deleteIfExists(temporary);
      }
    }
    // The rename is durable once the directory is.
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some file systems cannot sync a directory; the file itself is whole either way.
    }
    return result;
  }
}
