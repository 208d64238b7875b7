package dev.relabel.cli.output;

import dev.relabel.report.FilesystemProgress;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The text {@code setfiles -p} (and restorecon, setfiles under another name) prints for scripts
 * when standard output is not a terminal, for one run of it: {@code \rNk} for every 1024 entries
 * the policy gives a context, or {@code \rP%} when {@code /} is among the roots (a mass relabel:
 * P is the count in percent of libselinux's estimate,
 * {@link FilesystemProgress#massRelabelEstimate}, when it has one); at the run's end
 * {@code \r/ 100.0%\n} for a mass relabel, then {@code \n}. fixfiles runs one restorecon per
 * path it is given and one setfiles over all filesystems, so a verb that models it
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
  /** The estimate, once a relabel of / has asked for it. */
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
   * @param massRelabelEstimate what a relabel of / counts, as libselinux estimates it (0: unknown)
   */
  SetfilesProgressText(OutputStream out, boolean runsFromTheStart, LongSupplier massRelabelEstimate) {
    this.out = out;
    this.started = runsFromTheStart;
    this.massRelabelEstimate = massRelabelEstimate;
  }

  /** Before walking {@code root} (absolute, normalized). */
  synchronized void expect(byte[] root) {
    started = true;
    if (root.length == 1 && root[0] == '/' && !massRelabel) {
      massRelabel = true;
      estimate = massRelabelEstimate.getAsLong();
    }
  }

  /** The lines for every multiple of 1024 entries passed since the last call; {@code count}: all runs'. */
  synchronized void update(long count) {
    long own = count - before;
    StringBuilder lines = new StringBuilder();
    for (long star = printedStars + 1; star <= own / STAR_COUNT; star++) {
      long entries = star * STAR_COUNT;
      if (massRelabel && estimate > 0) {
        double percent = entries < estimate ? 100.0 * entries / estimate : 100;
        lines.append(String.format(Locale.ROOT, "\r%.1f%%", percent)); // C's "%-.1f": no width, so no padding
      } else {
        lines.append('\r').append(star).append('k');
      }
    }
    printedStars = Math.max(printedStars, own / STAR_COUNT);
    print(lines.toString());
  }

  /** The run ends at {@code count} (all runs'): its last lines; the next run counts from zero. */
  synchronized void end(long count) {
    update(count);
    print(massRelabel ? "\r/ 100.0%\n\n" : "\n");
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
    if (s.isEmpty()) {
      return;
    }
    try {
      out.write(s.getBytes(StandardCharsets.US_ASCII));
      out.flush();
    } catch (IOException e) {
      // setfiles goes on when its standard output is closed, and so does this
    }
  }
}
