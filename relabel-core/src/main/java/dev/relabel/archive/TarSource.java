package dev.relabel.archive;

import dev.relabel.policy.PathBytes;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a tar stream comes from, opened once per pass: {@link TarLabeller} reads it twice (the
 * first pass only to learn which names are hard links to which, so that every name of an inode
 * can carry the one label the policy gives its smallest name).
 */
@FunctionalInterface
public interface TarSource {
  /** The uncompressed tar stream, from its start. */
  InputStream open() throws IOException;

  /** A file holding a tar stream, plain or compressed (detected each time it is opened). */
  static TarSource of(Path file) {
    // FileInputStream, not Files.newInputStream: its skip is a seek, so a plain archive's first
    // pass reads only the headers. (java.io cannot name a file whose name the locale cannot decode.)
    return () -> Codec.detect(new BufferedInputStream(PathBytes.textNames(file) ? new FileInputStream(file.toFile())
        : Files.newInputStream(file), 1 << 16)).tar();
  }
}
