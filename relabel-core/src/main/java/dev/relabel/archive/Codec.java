package dev.relabel.archive;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.compress.compressors.CompressorException;
import org.apache.commons.compress.compressors.CompressorStreamFactory;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorInputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorOutputStream;

/**
 * How a tar stream is compressed: detected from its first bytes on input, chosen by a file name
 * or by name on output. Commons Compress provides the streams (bzip2 its own, xz through
 * org.tukaani:xz, zstd through zstd-jni).
 */
public enum Codec {
  NONE("none"),
  GZIP("gzip"),
  BZIP2("bzip2"),
  XZ("xz"),
  ZSTD("zstd");

  private final String displayName;

  Codec(String displayName) {
    this.displayName = displayName;
  }

  /** The name a user gives it ({@code none}, {@code gzip}, {@code xz}, {@code zstd}). */
  public String displayName() {
    return displayName;
  }

  /** The codec called {@code name}, or empty. */
  public static Optional<Codec> named(String name) {
    for (Codec codec : values()) {
      if (codec.displayName.equals(name.toLowerCase(Locale.ROOT))) {
        return Optional.of(codec);
      }
    }
    return Optional.empty();
  }

  /**
   * The codec a file name asks for ({@code .gz}, {@code .tgz}, {@code .xz}, {@code .txz},
   * {@code .zst}, {@code .tzst}); NONE otherwise.
   */
  public static Codec forFileName(String fileName) {
    String name = fileName.toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz") || name.endsWith(".tgz")) {
      return GZIP;
    }
    if (name.endsWith(".bz2") || name.endsWith(".tbz") || name.endsWith(".tbz2") || name.endsWith(".tb2")) {
      return BZIP2;
    }
    if (name.endsWith(".xz") || name.endsWith(".txz")) {
      return XZ;
    }
    if (name.endsWith(".zst") || name.endsWith(".tzst") || name.endsWith(".zstd")) {
      return ZSTD;
    }
    return NONE;
  }

  /**
   * The compression a file name asks for that no codec here writes ({@code .lz}: lzip, {@code .Z}:
   * compress...), as GNU tar's {@code -a} reads suffixes; empty for the others. Writing such a
   * name uncompressed would give a file its name lies about.
   */
  public static Optional<String> unwritable(String fileName) {
    String name = fileName.toLowerCase(Locale.ROOT);
    String[][] suffixes = {{".lz", "lzip"}, {".tlz", "lzip"}, {".lzma", "lzma"}, {".lz4", "lz4"}, {".lzo", "lzop"},
        {".taz", "compress"}, {".br", "brotli"}};
    for (String[] suffix : suffixes) {
      if (name.endsWith(suffix[0])) {
        return Optional.of(suffix[1]);
      }
    }
    return fileName.endsWith(".Z") ? Optional.of("compress") : Optional.empty();
  }

  /** A stream detected from its magic bytes, and the uncompressed tar stream it holds. */
  public record Detected(Codec codec, InputStream tar) {}

  /** Detects how {@code raw} is compressed (a plain tar stream has no magic) and opens it. */
  public static Detected detect(InputStream raw) throws IOException {
    InputStream in = raw.markSupported() ? raw : new BufferedInputStream(raw, 1 << 16);
    Codec codec;
    try {
      String name = CompressorStreamFactory.detect(in);
      codec = switch (name) {
        case CompressorStreamFactory.GZIP -> GZIP;
        case CompressorStreamFactory.BZIP2 -> BZIP2;
        case CompressorStreamFactory.XZ -> XZ;
        case CompressorStreamFactory.ZSTANDARD -> ZSTD;
        default -> throw new IOException("compressed with " + name + ", which relabel tar does not read"
            + " (gzip, bzip2, xz, zstd or none)");
      };
    } catch (CompressorException e) {
      codec = NONE; // no compressor's signature: a tar stream itself (the reader checks its headers)
    }
    return new Detected(codec, codec.decompress(in));
  }

  /** The uncompressed stream of {@code in} (which is compressed with this codec). */
  public InputStream decompress(InputStream in) throws IOException {
    return switch (this) {
      case NONE -> in;
      // Concatenated members are one stream, as gzip -d and xz -d read them.
      case GZIP -> new BufferedInputStream(new GzipCompressorInputStream(in, true), 1 << 16);
      case BZIP2 -> new BufferedInputStream(new BZip2CompressorInputStream(in, true), 1 << 16);
      case XZ -> new BufferedInputStream(new XZCompressorInputStream(in, true), 1 << 16);
      case ZSTD -> new BufferedInputStream(new ZstdCompressorInputStream(in), 1 << 16);
    };
  }

  /** A stream that compresses what is written to it with this codec onto {@code out}. */
  public OutputStream compress(OutputStream out) throws IOException {
    return switch (this) {
      case NONE -> out;
      case GZIP -> new GzipCompressorOutputStream(out);
      case BZIP2 -> new BZip2CompressorOutputStream(out);
      case XZ -> new XZCompressorOutputStream(out, 6);
      case ZSTD -> new ZstdCompressorOutputStream(out, 3);
    };
  }
}
