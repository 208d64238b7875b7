package dev.relabel.cli.tar;

import dev.relabel.archive.Codec;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A compressing stream begun at the first byte written: gzip, bzip2, xz and zstd write their
 * headers as soon as their stream is made, so a run that failed before writing a member left an
 * empty compressed stream on standard output (9 to 32 bytes) where an uncompressed one left
 * nothing. Closed without a byte written, it writes nothing.
 */
final class LazyCompression extends OutputStream {
  private final Codec codec;
  private final OutputStream target;
  private OutputStream compressed;

  LazyCompression(Codec codec, OutputStream target) {
    this.codec = codec;
    this.target = target;
  }

  private OutputStream compressed() throws IOException {
    if (compressed == null) {
      compressed = codec.compress(target);
    }
    return compressed;
  }

  @Override
  public void write(int b) throws IOException {
    compressed().write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    compressed().write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    if (compressed != null) {
      compressed.flush();
    }
  }

  @Override
  public void close() throws IOException {
    if (compressed != null) {
      compressed.close();
    } else {
      target.close();
    }
  }
}
