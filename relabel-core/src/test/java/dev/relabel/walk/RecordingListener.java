package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Keeps everything a run tells its listener; thread-safe. */
class RecordingListener implements RelabelListener {
  final Queue<RelabelReport.Change> changes = new ConcurrentLinkedQueue<>();
  final Queue<RelabelReport.Failure> failures = new ConcurrentLinkedQueue<>();
  final Queue<String> warnings = new ConcurrentLinkedQueue<>();
  /** Directories skipped because their digest was unchanged, as text. */
  final Queue<String> skipped = new ConcurrentLinkedQueue<>();

  @Override
  public void skippedUnchanged(byte[] path) {
    skipped.add(new String(path, java.nio.charset.StandardCharsets.ISO_8859_1));
  }

  @Override
  public void changed(RelabelReport.Change change) {
    changes.add(change);
  }

  @Override
  public void failed(RelabelReport.Failure failure) {
    failures.add(failure);
  }

  @Override
  public void warned(String message) {
    warnings.add(message);
  }

  /** The changes as "path: from -> to", sorted, without whether they were applied. */
  List<String> changeLines() {
    List<String> lines = new ArrayList<>();
    for (RelabelReport.Change change : changes) {
      lines.add(change.pathText() + ": " + change.from() + " -> " + change.to());
    }
    lines.sort(Comparator.naturalOrder());
    return lines;
  }
}
