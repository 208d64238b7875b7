package dev.relabel.policy;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;

/**
 * The locale's charset made lossless, as Python's {@code surrogateescape} (PEP 383): every byte the
 * locale's charset cannot decode becomes one lone low surrogate, U+DC00 plus the byte, and
 * encoding turns that surrogate back into the byte. A name or an argument decoded with it is the
 * text the locale shows for it when it is valid in the locale (the JDK's own decoding, unchanged),
 * and encoding it gives back the bytes the kernel or the command line held, whatever they were:
 * {@code café} in UTF-8 under {@code LC_ALL=C}, a Latin-1 {@code \xe9} under a UTF-8 locale.
 * The JDK's own decoding puts U+FFFD or '?' there instead, and a path or a context written back from
 * it names another file or another type.
 *
 * <p>Decoding takes each buffer it is given as the whole input (a sequence cut at the buffer's end
 * is escaped): it is meant for whole byte arrays ({@code new String(bytes, charset)}), not streams.
 */
final class EscapingCharset extends Charset {
  private static final char FIRST_ESCAPE = '\uDC00';
  private static final char LAST_ESCAPE = '\uDCFF';

  private final Charset locale;

  EscapingCharset(Charset locale) {
    super("x-relabel-escaping-" + locale.name(), null);
    this.locale = locale;
  }

  /** The locale's own charset, that this one escapes the undecodable bytes of. */
  Charset locale() {
    return locale;
  }

  @Override
  public boolean contains(Charset other) {
    return other.equals(this) || locale.contains(other);
  }

  @Override
  public CharsetDecoder newDecoder() {
    return new Decoder(this, locale.newDecoder());
  }

  @Override
  public CharsetEncoder newEncoder() {
    return new Encoder(this, locale.newEncoder());
  }

  private static final class Decoder extends CharsetDecoder {
    private final CharsetDecoder locale;

    Decoder(Charset charset, CharsetDecoder locale) {
      super(charset, locale.averageCharsPerByte(), Math.max(1, locale.maxCharsPerByte()));
      this.locale = locale.onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    @Override
    protected CoderResult decodeLoop(ByteBuffer in, CharBuffer out) {
      while (true) {
        locale.reset();
        CoderResult result = locale.decode(in, out, true);
        if (!result.isError()) {
          return result;
        }
        if (out.remaining() < result.length()) {
          return CoderResult.OVERFLOW;
        }
        for (int i = 0; i < result.length(); i++) {
          out.put((char) (FIRST_ESCAPE | (in.get() & 0xFF)));
        }
      }
    }
  }

  private static final class Encoder extends CharsetEncoder {
    private final CharsetEncoder locale;

    Encoder(Charset charset, CharsetEncoder locale) {
      super(charset, locale.averageBytesPerChar(), Math.max(1, locale.maxBytesPerChar()), locale.replacement());
      this.locale = locale.onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    @Override
    public boolean canEncode(char c) {
      return isEscape(c) || locale.canEncode(c);
    }

    @Override
    public boolean isLegalReplacement(byte[] replacement) {
      return true;
    }

    @Override
    protected CoderResult encodeLoop(CharBuffer in, ByteBuffer out) {
      while (in.hasRemaining()) {
        char first = in.get(in.position());
        if (isEscape(first)) {
          if (!out.hasRemaining()) {
            return CoderResult.OVERFLOW;
          }
          out.put((byte) first);
          in.position(in.position() + 1);
          continue;
        }
        // The text up to the next escape, encoded by the locale's own encoder. A surrogate pair's
        // low half may lie in the escapes' range (U+1008D is U+DBC0 U+DC8D): it goes with its pair.
        int end = in.position();
        while (end < in.limit() && !isEscape(in.get(end))) {
          if (Character.isHighSurrogate(in.get(end)) && end + 1 == in.limit()) {
            break; // its low half may come with the next buffer (a Writer's)
          }
          end += Character.isHighSurrogate(in.get(end)) && Character.isLowSurrogate(in.get(end + 1)) ? 2 : 1;
        }
        if (end == in.position()) {
          return CoderResult.UNDERFLOW;
        }
        CharBuffer text = in.duplicate();
        text.limit(end);
        locale.reset();
        CoderResult result = locale.encode(text, out, true);
        in.position(text.position());
        if (result.isError() || result.isOverflow()) {
          return result;
        }
      }
      return CoderResult.UNDERFLOW;
    }

    private static boolean isEscape(char c) {
      return c >= FIRST_ESCAPE && c <= LAST_ESCAPE;
    }
  }
}
