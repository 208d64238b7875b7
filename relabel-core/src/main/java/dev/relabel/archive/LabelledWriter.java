package dev.relabel.archive;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Date;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.tar.TarUtils;
import org.apache.commons.compress.archivers.zip.ZipEncoding;
import org.apache.commons.compress.archivers.zip.ZipEncodingHelper;

/**
 * Writes a member's headers back, as they were or with a new label: its PAX extended header
 * rewritten (every other record kept, in order) with the label record in place of any old one,
 * or, when it had none, a PAX header made for it (named {@code DIR/PaxHeaders/NAME} as GNU tar
 * names them, with the member's time, so that the same input always gives the same output).
 */
final class LabelledWriter {
  private static final ZipEncoding RAW = ZipEncodingHelper.getZipEncoding("ISO-8859-1");
  private static final int SIZE_OFFSET = 124;
  private static final int SIZE_LENGTH = 12;
  private static final int CHECKSUM_OFFSET = 148;
  private static final int CHECKSUM_LENGTH = 8;

  private LabelledWriter() {}

  /** The member's headers as they were. */
  static void writeUnchanged(TarMember member, OutputStream out) throws IOException {
    out.write(member.before());
    if (member.paxBlock() != null) {
      out.write(member.paxBlock());
    }
    out.write(member.after());
  }

  /** The member's headers with {@code context} as its label. */
  static void writeLabelled(TarMember member, String context, OutputStream out) throws IOException {
    byte[] records = member.pax().withLabel(context);
    byte[] header = member.paxBlock() != null ? Arrays.copyOf(member.paxBlock(), TarMember.BLOCK)
        : newPaxHeader(member);
    setSize(header, records.length);
    if (member.paxBlock() == null) {
      // a new extended header goes first, before any GNU long name: it applies to what follows
      out.write(header);
      out.write(TarReader.padded(records));
      out.write(member.before());
    } else {
      out.write(member.before());
      out.write(header);
      out.write(TarReader.padded(records));
      out.write(member.after());
    }
  }

  private static byte[] newPaxHeader(TarMember member) throws IOException {
    String name = member.name();
    int slash = name.endsWith("/") ? name.lastIndexOf('/', name.length() - 2) : name.lastIndexOf('/');
    String base = name.substring(slash + 1);
    if (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    String paxName = (slash < 0 ? "." : name.substring(0, slash)) + "/PaxHeaders/" + base;
    if (paxName.getBytes(StandardCharsets.ISO_8859_1).length > TarConstants.NAMELEN) {
      paxName = "./PaxHeaders/" + base;
      if (paxName.length() > TarConstants.NAMELEN) {
        paxName = paxName.substring(0, TarConstants.NAMELEN);
      }
    }
    TarArchiveEntry entry = new TarArchiveEntry(paxName, TarConstants.LF_PAX_EXTENDED_HEADER_LC, true);
    entry.setMode(0644);
    entry.setModTime(new Date(member.modTime() * 1000));
    byte[] header = new byte[TarMember.BLOCK];
    entry.writeEntryHeader(header, RAW, false);
    return header;
  }

  /** Sets a header's size field (octal, as GNU tar writes it) and its checksum. */
  private static void setSize(byte[] header, long size) {
    byte[] digits = String.format("%0" + (SIZE_LENGTH - 1) + "o", size).getBytes(StandardCharsets.US_ASCII);
    Arrays.fill(header, SIZE_OFFSET, SIZE_OFFSET + SIZE_LENGTH, (byte) 0);
    System.arraycopy(digits, 0, header, SIZE_OFFSET, digits.length);
    Arrays.fill(header, CHECKSUM_OFFSET, CHECKSUM_OFFSET + CHECKSUM_LENGTH, (byte) ' ');
    TarUtils.formatCheckSumOctalBytes(TarUtils.computeCheckSum(header), header, CHECKSUM_OFFSET, CHECKSUM_LENGTH);
  }
}
