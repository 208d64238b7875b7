package dev.relabel.cli.output;

import dev.relabel.report.FilesystemProgress;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;

/**
 * The text {@code setfiles -p} (and restorecon, setfiles under another name) prints for scripts
 * when standard output is not a terminal, for one run of it: {@code \rNk} for every 1024 entries
 * the policy gives a context; in a mass relabel (setfiles' name for a run given {@code /} among
 * its arguments) {@code \rP%} instead, P the count in percent of libselinux's estimate
 * ({@link FilesystemProgress#massRelabelEstimate}, when it has one), and {@code \rPATH 100.0%\n}
 * after each path's recursive walk; at the run's end {@code \n}. fixfiles runs one restorecon
 * per path it is given and one setfiles over all filesystems, so a verb that models it
 * {@linkplain #end ends a run} where one of those processes would have ended: the next run
 * counts from zero.
 */
final class SetfilesProgressText {
  /** setfiles' STAR_COUNT: one progress line per this many entries. */
  private static final int STAR_COUNT = 1024;

  private final OutputStream out;
  private final LongSupplier massRelabelEstimate;
  // All of this run's.
  private boolean massRelabel;
  /** The estimate, once a mass relabel has asked for it. */
  private long estimate;
  /** Entries counted before this run: its own count is the count less this. */
  private long before;
  /** The last multiple of {@value #STAR_COUNT} printed, in units of it. */
  private long printedStars;
  /** Whether a run has begun that has not ended. */
  private boolean started;

  /**
   * @param runsFromTheStart whether a run begins with the command, as setfiles' does (it prints
   *     its last line even when no path could be walked), or only with a walk, as a fixfiles verb's
   *     (which runs no tool when it finds nothing to label)
   * @param massRelabelEstimate what a mass relabel counts, as libselinux estimates it (0: unknown)
   */
  SetfilesProgressText(OutputStream out, boolean runsFromTheStart, LongSupplier massRelabelEstimate) {
    this.out = out;
    this.started = runsFromTheStart;
    this.massRelabelEstimate = massRelabelEstimate;
  }

  /** Before a walk. */
  synchronized void expect() {
    started = true;
  }

  /**
   * The run is a mass relabel, as setfiles' when one of its arguments is {@code /} (never with
   * -f: setfiles 3.4 notes a line "/" only after it has set its flags).
   */
  synchronized void massRelabel() {
    if (!massRelabel) {
      massRelabel = true;
      estimate = massRelabelEstimate.getAsLong();
    }
  }

  /**
   * A path's recursive walk ended at {@code count} (all runs'): in a mass relabel, its closing
   * line, with the path as the tool names it ({@code named}, in the command's charset).
   */
  synchronized void walked(long count, byte[] named) {
    update(count);
    if (massRelabel) {
      print("\r");
      print(named);
      print(" 100.0%\n");
    }
  }

  /** The lines for every multiple of 1024 entries passed since the last call; {@code count}: all runs'. */
  synchronized void update(long count) {
    long own = count - before;
    StringBuilder lines = new StringBuilder();
    for (long star = printedStars + 1; star <= own / STAR_COUNT; star++) {
      long entries = star * STAR_COUNT;
      if (massRelabel && estimate > 0) {
        lines.append('\r').append(percent(entries, estimate)).append('%');
      } else {
        lines.append('\r').append(star).append('k');
      }
    }
    printedStars = Math.max(printedStars, own / STAR_COUNT);
    print(lines.toString());
  }

  /**
   * libselinux's percentage, as it prints it: computed in double, kept in a float ({@code float
   * pc}), printed with C's {@code "%-.1f"}, which rounds the float's exact binary value (ties to
   * even). Java's own %.1f rounds the double's decimal form half up: 6.25 is 6.3 there, 6.2 in C.
   */
  static String percent(long entries, long estimate) {
    float percent = (float) (entries < estimate ? 100.0 * entries / estimate : 100);
    return new BigDecimal(percent).setScale(1, RoundingMode.HALF_EVEN).toPlainString();
  }

  /** The run ends at {@code count} (all runs'): its last lines; the next run counts from zero. */
  synchronized void end(long count) {
    update(count);
    print("\n");
    before = count;
    printedStars = 0;
    massRelabel = false;
    estimate = 0;
    started = false;
  }

  /** Whether a run has begun that has not ended. */
  synchronized boolean open() {
    return started;
  }

  private void print(String s) {
    print(s.getBytes(StandardCharsets.US_ASCII));
  }

  private void print(byte[] bytes) {
    if (bytes.length == 0) {
      return;
    }
    try {
      out.write(bytes);
      out.flush();
    } catch (IOException e) {
      // setfiles goes on when its standard output is closed, and so does this
    }
  }
}
