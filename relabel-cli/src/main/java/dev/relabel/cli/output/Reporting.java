package dev.relabel.cli.output;

import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.Io;
import dev.relabel.report.FilesystemProgress;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --json} and progress for one run of a relabelling verb, in one place, so that a verb
 * adopts both with a few lines:
 *
 * <pre>{@code
 * @Mixin JsonOption json;
 * @Mixin ProgressOptions progress;
 * ...
 * try (Reporting reporting = Reporting.start(parent.io(), "VERB", json, progress, verbose, dryRun)) {
 *   Io io = reporting.io();                         // the verb's own text goes here
 *   RelabelListener listener = reporting.listener(output);
 *   ... reporting.expect(root, shown); RelabelReport r = relabeler.run(List.of(root)); reporting.completed(r); ...
 *   return reporting.finish(status);                // ends the bar at 100%, writes the JSON
 * }
 * }</pre>
 */
public final class Reporting implements AutoCloseable {
  private final ProgressReporter progress;
  private final JsonReport json;
  private final Io io;
  /** Per-filesystem progress lines and systemd notifications, when the verb asked for them. */
  private FilesystemProgress filesystems;

  private Reporting(ProgressReporter progress, JsonReport json, Io io) {
    this.progress = progress;
    this.json = json;
    this.io = io;
  }

  /**
   * @param withChanges list each change in the JSON report ({@code -v})
   * @param dryRun nothing is written ({@code -n})
   */
  public static Reporting start(Io io, String command, JsonOption jsonOption, ProgressOptions progressOptions,
      boolean withChanges, boolean dryRun) {
    ProgressReporter progress = progressOptions == null ? ProgressReporter.NONE : progressOptions.open(io, command,
        jsonOption != null && jsonOption.enabled());
    Io guarded = progress.streams(io);
    JsonReport json = jsonOption == null ? null
        : jsonOption.open(guarded, JsonReport.Kind.RELABEL, command, withChanges, dryRun);
    return new Reporting(progress, json, JsonOption.textStreams(guarded, json));
  }

  /** The streams for the verb's own text: with --json its standard output is standard error. */
  public Io io() {
    return io;
  }

  /** The JSON report, or null without --json (for errors that are not the engine's). */
  public JsonReport json() {
    return json;
  }

  /** Also reports to {@code progress} (before the verb builds its listener). */
  public Reporting perFilesystem(FilesystemProgress progress) {
    this.filesystems = progress;
    return this;
  }

  /** {@code output} (the verb's text listener), the progress display and the JSON report, together. */
  public RelabelListener listener(RelabelListener output) {
    List<RelabelListener> all = new ArrayList<>(List.of(output));
    if (filesystems != null) {
      all.add(filesystems);
    }
    if (progress != ProgressReporter.NONE) {
      all.add(progress);
    }
    if (json != null) {
      all.add(json);
    }
    return all.size() == 1 ? output : new Listeners(all);
  }

  /** The worker threads the walk runs on, for the JSON report. */
  public void threads(int workers) {
    if (json != null) {
      json.threads(workers);
    }
  }

  /**
   * Before the walk of {@code root} (the bytes of an absolute, normalized path), which the
   * per-filesystem lines call {@code shown}.
   */
  public void expect(byte[] root, String shown) {
    progress.expect(root);
    if (filesystems != null) {
      filesystems.expect(root, shown);
    }
  }

  /**
   * setfiles' mass relabel: one of its arguments is {@code /}. Its -p text counts in percent and
   * closes each path's walk.
   */
  public void massRelabel() {
    progress.massRelabel();
  }

  /** After the recursive walk of a path, as setfiles or restorecon names it ({@link ProgressReporter#walked}). */
  public void walked(byte[] named) {
    progress.walked(named);
  }

  /** Where a setfiles or restorecon run would end, for its -p text ({@link ProgressReporter#endSetfilesRun}). */
  public void endSetfilesRun() {
    progress.endSetfilesRun();
  }

  /** After a walk. */
  public void completed(RelabelReport report) {
    progress.completed(report);
    if (filesystems != null) {
      filesystems.completed(report);
    }
    if (json != null) {
      json.add(report);
    }
  }

  /** Ends the progress display, then writes the JSON report; returns {@code status}. */
  public int finish(int status) {
    progress.finish();
    return json == null ? status : json.finish(status);
  }

  /** Stops the progress display (an exception ends the run before {@link #finish}). */
  @Override
  public void close() {
    progress.finish();
  }

  /** Every listener in turn (a method added to RelabelListener must be added here too). */
  private record Listeners(List<RelabelListener> all) implements RelabelListener {
    @Override
    public void changed(RelabelReport.Change change) {
      for (RelabelListener listener : all) {
        listener.changed(change);
      }
    }

    @Override
    public void matched(byte[] path, String context) {
      for (RelabelListener listener : all) {
        listener.matched(path, context);
      }
    }

    @Override
    public void noDefaultLabel(byte[] key) {
      for (RelabelListener listener : all) {
        listener.noDefaultLabel(key);
      }
    }

    @Override
    public void failed(RelabelReport.Failure failure) {
      for (RelabelListener listener : all) {
        listener.failed(failure);
      }
    }

    @Override
    public void progress(long entries) {
      for (RelabelListener listener : all) {
        listener.progress(entries);
      }
    }

    @Override
    public void skippedUnchanged(byte[] path) {
      for (RelabelListener listener : all) {
        listener.skippedUnchanged(path);
      }
    }

    @Override
    public void keptCustomized(byte[] path, String context) {
      for (RelabelListener listener : all) {
        listener.keptCustomized(path, context);
      }
    }

    @Override
    public void conflicted(byte[] other, byte[] previous, String context) {
      for (RelabelListener listener : all) {
        listener.conflicted(other, previous, context);
      }
    }

    @Override
    public void warned(String message) {
      for (RelabelListener listener : all) {
        listener.warned(message);
      }
    }
  }
}
