package dev.relabel.cli.chcon;

import dev.relabel.policy.PathBytes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * How coreutils (gnulib's quotearg) quotes what chcon prints, so that scripts reading its lines
 * read ours: {@link #file} for file names ({@code quoteaf}: shell-escape-always, {@code 'a b'},
 * {@code 'x'$'\n''y'}, {@code "it's"}), {@link #value} for contexts and field values
 * ({@code quote}: the locale's quotation marks, {@code ‘a\tb’} in a UTF-8 locale, {@code 'a\tb'}
 * in others), and {@link #fileWhereNeeded} ({@code quotef}) for the one line that quotes a name
 * only when it must. In a UTF-8 locale a printable multibyte character is kept; otherwise every byte
 * outside printable ASCII is written as an octal escape.
 */
final class ChconQuoting {
  private static final byte[] LEFT_UTF8 = "\u2018".getBytes(StandardCharsets.UTF_8);
  private static final byte[] RIGHT_UTF8 = "\u2019".getBytes(StandardCharsets.UTF_8);

  private final boolean utf8;

  ChconQuoting(Charset charset) {
    this.utf8 = PathBytes.isUtf8(charset);
  }

  /** {@code quoteaf(name)}. */
  byte[] file(byte[] name) {
    Shell shell = new Shell();
    shell.quote(name);
    if (shell.sawSingleQuote && shell.allDoubleQuotable) {
      // Nothing in it that double quotes would change: "it's" reads better than 'it'\''s'.
      ByteArrayOutputStream out = new ByteArrayOutputStream(name.length + 2);
      out.write('"');
      out.writeBytes(name);
      out.write('"');
      return out.toByteArray();
    }
    if (shell.sawSingleQuote) {
      // quotearg quotes a name with a ' again, in a second pass that begins where the first one
      // ended: inside $'...' when the name ends with an escaped character. Its first plain
      // character then "closes" that part (a'b^A comes out as '''a'\''b'$'\001'), and its first
      // escaped one opens none (^Aa'b^A as '\001''a'\''b'$'\001'). Scripts reading chcon's lines
      // get these very bytes.
      Shell again = new Shell();
      again.inEscapes = shell.inEscapes;
      again.quote(name);
      return again.out.toByteArray();
    }
    return shell.out.toByteArray();
  }

  /**
   * {@code quotef(name)}, as chcon names a directory in its cycle warning: the name as it is when
   * nothing in it means anything to a shell (nor is a colon), else as {@link #file} quotes it.
   */
  byte[] fileWhereNeeded(byte[] name) {
    return needsQuotes(name) ? file(name) : name;
  }

  private boolean needsQuotes(byte[] name) {
    if (name.length == 0 || name.length == 1 && (name[0] == '{' || name[0] == '}') || name[0] == '#' || name[0] == '~') {
      return true;
    }
    int i = 0;
    while (i < name.length) {
      int c = name[i] & 0xff;
      if (c >= 0x80) {
        int length = utf8 ? printableUtf8(name, i) : 0;
        if (length == 0) {
          return true;
        }
        i += length;
      } else if (c < 0x20 || c == 0x7f || " !\"$&'()*;<=>?[\\^`|:".indexOf(c) >= 0) {
        return true;
      } else {
        i++;
      }
    }
    return false;
  }

  /** {@code quote(value)}, {@code value} one char per byte. */
  byte[] value(String value) {
    return value(value.getBytes(StandardCharsets.ISO_8859_1));
  }

  byte[] value(byte[] value) {
    byte[] right = utf8 ? RIGHT_UTF8 : new byte[] {'\''};
    ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 8);
    out.writeBytes(utf8 ? LEFT_UTF8 : new byte[] {'\''});
    int i = 0;
    while (i < value.length) {
      int c = value[i] & 0xff;
      if (startsWith(value, i, right)) {
        out.write('\\');
        out.write(value, i, right.length);
        i += right.length;
        continue;
      }
      char letter = cEscape(c);
      if (letter != 0 || c == '\\') {
        out.write('\\');
        out.write(letter != 0 ? letter : '\\');
        i++;
        continue;
      }
      if (c >= 0x20 && c < 0x7f) {
        out.write(c);
        i++;
        continue;
      }
      int length = utf8 ? printableUtf8(value, i) : 0;
      if (length > 0) {
        out.write(value, i, length);
        i += length;
      } else {
        octal(out, c);
        i++;
      }
    }
    out.writeBytes(right);
    return out.toByteArray();
  }

  /** The letter of C's escape for {@code c} (\a \b \f \n \r \t \v), or 0. */
  private static char cEscape(int c) {
    return switch (c) {
      case 7 -> 'a';
      case 8 -> 'b';
      case 12 -> 'f';
      case '\n' -> 'n';
      case '\r' -> 'r';
      case '\t' -> 't';
      case 11 -> 'v';
      default -> 0;
    };
  }

  private static void octal(ByteArrayOutputStream out, int c) {
    out.write('\\');
    out.write('0' + (c >> 6));
    out.write('0' + ((c >> 3) & 7));
    out.write('0' + (c & 7));
  }

  private static boolean startsWith(byte[] value, int at, byte[] prefix) {
    if (at + prefix.length > value.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (value[at + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The length of the UTF-8 sequence of a printable character at {@code at} (two bytes or more),
   * or 0 when the bytes there are not one.
   */
  static int printableUtf8(byte[] bytes, int at) {
    int lead = bytes[at] & 0xff;
    int length;
    int codePoint;
    if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
      codePoint = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      codePoint = lead & 0x0f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      codePoint = lead & 0x07;
    } else {
      return 0;
    }
    if (at + length > bytes.length) {
      return 0;
    }
    for (int i = 1; i < length; i++) {
      int next = bytes[at + i] & 0xff;
      if ((next & 0xc0) != 0x80) {
        return 0;
      }
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    boolean overlong = (length == 3 && codePoint < 0x800) || (length == 4 && codePoint < 0x10000);
    if (overlong || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
      return 0;
    }
    int type = Character.getType(codePoint);
    boolean printable = type != Character.CONTROL && type != Character.UNASSIGNED && type != Character.SURROGATE
        && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR;
    return printable ? length : 0;
  }

  /** One pass of shell-escape-always quoting: '...', with $'...' for what needs an escape. */
  private final class Shell {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    boolean sawSingleQuote;
    /** Whether every character could stand as it is between double quotes (no $ ` \ " ! and so on). */
    boolean allDoubleQuotable = true;
    /** Inside a $'...' part, to be closed before a plain character. */
    private boolean inEscapes;

    void quote(byte[] name) {
      out.write('\'');
      int i = 0;
      while (i < name.length) {
        int c = name[i] & 0xff;
        char letter = cEscape(c);
        if (letter != 0) {
          escape();
          out.write(letter);
          allDoubleQuotable = false;
          i++;
          continue;
        }
        if (c == '\'') {
          sawSingleQuote = true;
          out.writeBytes(new byte[] {'\'', '\\', '\''});
          inEscapes = false;
          out.write('\'');
          i++;
          continue;
        }
        if (c >= 0x20 && c < 0x7f) {
          allDoubleQuotable &= doubleQuotable(name, i, c);
          plain(c);
          i++;
          continue;
        }
        int length = utf8 ? printableUtf8(name, i) : 0;
        if (length > 0) {
          closeEscapes();
          out.write(name, i, length);
          i += length;
        } else {
          allDoubleQuotable = false;
          escape();
          out.write('0' + (c >> 6));
          out.write('0' + ((c >> 3) & 7));
          out.write('0' + (c & 7));
          i++;
        }
      }
      out.write('\'');
    }

    private boolean doubleQuotable(byte[] name, int i, int c) {
      if (Character.isLetterOrDigit(c) || "%+,-./:]_@ ".indexOf(c) >= 0) {
        return true;
      }
      if (c == '#' || c == '~') {
        return i == 0;
      }
      if (c == '{' || c == '}') {
        return name.length == 1;
      }
      return false;
    }

    private void plain(int c) {
      closeEscapes();
      out.write(c);
    }

    private void escape() {
      if (!inEscapes) {
        out.writeBytes(new byte[] {'\'', '$', '\''});
        inEscapes = true;
      }
      out.write('\\');
    }

    private void closeEscapes() {
      if (inEscapes) {
        out.write('\'');
        out.write('\'');
        inEscapes = false;
      }
    }
  }
}
