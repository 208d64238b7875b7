package dev.relabel.cli.lookup;

/** Helpers for showing path bytes in messages. */
public final class Text {
  private Text() {}

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /**
   * A path held one char per byte, made printable for a one-line message: printable ASCII as is,
   * a backslash doubled, every other byte (controls, DEL, non-ASCII) as {@code \xNN}.
   */
  static String escape(String latin1) {
    StringBuilder out = null;
    for (int i = 0; i < latin1.length(); i++) {
      char c = latin1.charAt(i);
      boolean plain = c >= 0x20 && c < 0x7f && c != '\\';
      if (plain && out == null) {
        continue;
      }
      if (out == null) {
        out = new StringBuilder(latin1.length() + 16).append(latin1, 0, i);
      }
      if (plain) {
        out.append(c);
      } else if (c == '\\') {
        out.append("\\\\");
      } else {
        out.append("\\x").append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
      }
    }
    return out == null ? latin1 : out.toString();
  }
}
