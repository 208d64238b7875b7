package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.relabel.policy.PathBytes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ArgumentsTest {
  private static final Charset CHARSET = PathBytes.charset();

  private static byte[] cmdline(byte[]... records) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] record : records) {
      out.writeBytes(record);
      out.write(0);
    }
    return out.toByteArray();
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void theProgramsArgumentsAreTheLastRecordsEachAsItsBytes() {
    byte[] latin1 = {'d', (byte) 0xe9};
    byte[] cmdline = cmdline(ascii("java"), ascii("-cp"), ascii("relabel.jar"), ascii("dev.relabel.cli.Main"),
        ascii("chcon"), new byte[0], latin1);
    String[] args = Arguments.lossless(new String[] {"chcon", "", "d\uFFFD"}, cmdline, CHARSET);
    assertArrayEquals(new String[] {"chcon", "", new String(latin1, CHARSET)}, args);
    assertArrayEquals(latin1, args[2].getBytes(CHARSET));
  }

  @Test
  void anotherCommandLineLeavesTheJdksArguments() {
    String[] decoded = {"lookup", "/a"};
    // Not the same arguments (a JVM started some other way), too few records, a last one unterminated.
    assertSame(decoded, Arguments.lossless(decoded, cmdline(ascii("java"), ascii("lookup"), ascii("/b")), CHARSET));
    assertSame(decoded, Arguments.lossless(decoded, cmdline(ascii("/a")), CHARSET));
    assertSame(decoded, Arguments.lossless(decoded, ascii("java\0lookup\0/a"), CHARSET));
  }
}
