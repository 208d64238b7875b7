package dev.relabel.cli;

import dev.relabel.policy.PathBytes;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command-line arguments as the process received them. The JDK decodes {@code main}'s
 * arguments with the locale's charset and replaces what it cannot decode: under {@code LC_ALL=C}
 * {@code typé_t} arrives as {@code typ??_t} (and chcon would write that type), under a UTF-8 locale
 * a Latin-1 file name {@code \xe9} as U+FFFD (and names no file). setfiles, restorecon and chcon take
 * their arguments as bytes; so does relabel: the arguments are read again from {@code
 * /proc/self/cmdline} (the program's are its last ones, after the JVM's options and the main class)
 * and decoded with {@link PathBytes#charset()}, which gives the JDK's text for every argument the
 * locale can decode and keeps every other byte ({@code String.getBytes(PathBytes.charset())} turns
 * it back).
 */
final class Arguments {
  private static final String CMDLINE = "/proc/self/cmdline";

  private Arguments() {}

  /** {@code main}'s arguments, each decoded from its bytes; {@code decoded} itself when they cannot be read. */
  static String[] lossless(String[] decoded) {
    byte[] cmdline;
    try (InputStream in = new FileInputStream(CMDLINE)) {
      cmdline = in.readAllBytes();
    } catch (IOException e) {
      return decoded; // no /proc: the JDK's decoding is all there is
    }
    return lossless(decoded, cmdline, PathBytes.charset());
  }

  /**
   * The last {@code decoded.length} NUL-terminated records of {@code cmdline}, decoded with {@code
   * charset}; {@code decoded} itself when they are not the same arguments (each one the locale can
   * decode must decode to the JDK's text), as when the JVM was started some other way.
   */
  static String[] lossless(String[] decoded, byte[] cmdline, Charset charset) {
    List<byte[]> records = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < cmdline.length; i++) {
      if (cmdline[i] == 0) {
        records.add(Arrays.copyOfRange(cmdline, start, i));
        start = i + 1;
      }
    }
    if (start != cmdline.length || records.size() < decoded.length) {
      return decoded;
    }
    List<byte[]> ours = records.subList(records.size() - decoded.length, records.size());
    CharsetDecoder strict = PathBytes.localeCharset(charset).newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    String[] lossless = new String[decoded.length];
    for (int i = 0; i < decoded.length; i++) {
      byte[] bytes = ours.get(i);
      try {
        if (!strict.decode(ByteBuffer.wrap(bytes)).toString().equals(decoded[i])) {
          return decoded;
        }
      } catch (CharacterCodingException e) {
        // Not valid in the locale: the JDK replaced some of it, nothing to compare.
      }
      lossless[i] = new String(bytes, charset);
    }
    return lossless;
  }
}
