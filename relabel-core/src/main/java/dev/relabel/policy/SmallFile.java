package dev.relabel.policy;

import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The small files a run reads whole at its start (the policy's {@code selinux/config} and
 * {@code customizable_types}, the mount table), through java.io, which a JVM has ready. NIO's
 * first read ({@code Files.readAllBytes}, {@code readAllLines}) initializes its channels
 * ({@code sun.nio.ch.IOUtil}: 38 classes, and libnet's start, which reads
 * {@code /proc/net/if_inet6} to learn whether the host has IPv6): milliseconds of a one-file run.
 */
public final class SmallFile {
  private SmallFile() {}

  /**
   * The file's bytes. java.io says "not found" for any failed open: NIO reads the file again then,
   * so that a missing file throws {@link java.nio.file.NoSuchFileException} and any other failure
   * says why as NIO says it.
   */
  public static byte[] read(Path file) throws IOException {
    try (FileInputStream in = new FileInputStream(file.toFile())) {
      return in.readAllBytes();
    } catch (FileNotFoundException e) {
      return Files.readAllBytes(file);
    }
  }
}
