package dev.relabel.cli.output;

import dev.relabel.policy.PathBytes;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import tools.jackson.core.JsonGenerator;

/**
 * How the JSON report writes bytes that are usually text (paths, messages): a Linux path is any
 * bytes, JSON strings are Unicode. A field {@code NAME} holds the bytes decoded as UTF-8 when they
 * are valid UTF-8, and then that is all. Otherwise {@code NAME} holds a display form (valid UTF-8
 * sequences as they are, every other byte as {@code \xNN}, a backslash as {@code \\}) and
 * {@code NAMEBase64} holds the exact bytes, base64 (RFC 4648, with padding). A reader that needs
 * the bytes takes {@code NAMEBase64} when present, else {@code NAME} encoded as UTF-8.
 */
public final class JsonText {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private JsonText() {}

  /** Writes {@code name} (and {@code nameBase64} when needed) for {@code bytes}. */
  static void writeBytes(JsonGenerator json, String name, byte[] bytes) {
    String text = utf8(bytes);
    if (text != null) {
      json.writeStringProperty(name, text);
    } else {
      json.writeStringProperty(name, display(bytes));
      json.writeStringProperty(name + "Base64", Base64.getEncoder().encodeToString(bytes));
    }
  }

  /**
   * A message as a JSON string: relabel's text holds a path's bytes as {@link
   * PathBytes#charset()} decoded them, which for bytes that are not UTF-8 are
   * chars no JSON reader must take (lone surrogates); those bytes are written in the display form.
   */
  static String message(String text) {
    byte[] bytes = text.getBytes(PathBytes.charset());
    String utf8 = utf8(bytes);
    return utf8 != null ? utf8 : display(bytes);
  }

  /** The bytes as a string when they are valid UTF-8, else null. */
  static String utf8(byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return decoder.decode(ByteBuffer.wrap(bytes)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      return null;
    }
  }

  /** Valid UTF-8 sequences as they are, each other byte as {@code \xNN}, a backslash doubled. */
  static String display(byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer chars = CharBuffer.allocate(bytes.length + 1);
    StringBuilder out = new StringBuilder(bytes.length + 16);
    while (true) {
      CoderResult result = decoder.decode(in, chars, true);
      chars.flip();
      appendEscapingBackslashes(out, chars);
      chars.clear();
      if (result.isError()) {
        for (int i = 0; i < result.length(); i++) {
          int b = in.get() & 0xff;
          out.append("\\x").append(HEX[b >> 4]).append(HEX[b & 0xf]);
        }
      } else if (result.isUnderflow()) {
        break;
      }
    }
    return out.toString();
  }

  private static void appendEscapingBackslashes(StringBuilder out, CharSequence chars) {
    for (int i = 0; i < chars.length(); i++) {
      char c = chars.charAt(i);
      out.append(c);
      if (c == '\\') {
        out.append('\\');
      }
    }
  }
}
