package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.match.LabelMatcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interrupting the thread that called {@link Relabeler#run}: the run stops early, returns a
 * cancelled report, leaves the interrupt flag set, and every entry has its old label or its new
 * one, never anything else.
 */
class CancellationTest {
  private static final String OLD = "system_u:object_r:old_t:s0";
  private static final String NEW = "system_u:object_r:new_t:s0";
  private static final int DIRECTORIES = 100;
  private static final int FILES = 100;

  @TempDir static Path dir;
  private static Path tree;
  private static LabelMatcher toOld;
  private static LabelMatcher toNew;

  @BeforeAll
  static void bigTree() throws IOException {
    tree = Files.createDirectory(dir.resolve("tree"));
    for (int d = 0; d < DIRECTORIES; d++) {
      Path sub = Files.createDirectory(tree.resolve("d" + d));
      for (int f = 0; f < FILES; f++) {
        Files.createFile(sub.resolve("f" + f));
      }
    }
    toOld = TestPolicy.matcher(dir.resolve("policy-old"), "/.*  " + OLD);
    toNew = TestPolicy.matcher(dir.resolve("policy-new"), "/.*  " + NEW);
  }

  private static void resetToOld() throws IOException {
    RelabelReport report = Relabeler.onDisk(toOld, RelabelOptions.defaults().withForce(true).withThreads(2),
        RelabelListener.NONE).run(List.of(tree));
    assertEquals(List.of(), report.failures());
  }

  private record Result(RelabelReport report, boolean interruptedAfter) {}

  /** Runs on a thread of its own, so the test can interrupt it; fails unless it returns within 30 s. */
  private static Result runOnCaller(RelabelOptions options, long interruptAfterChanges, boolean interruptFirst)
      throws Exception {
    AtomicReference<Thread> caller = new AtomicReference<>();
    AtomicLong changes = new AtomicLong();
    AtomicBoolean interrupted = new AtomicBoolean();
    RelabelListener listener = new RelabelListener() {
      @Override
      public void changed(RelabelReport.Change change) {
        if (changes.incrementAndGet() == interruptAfterChanges && interrupted.compareAndSet(false, true)) {
          caller.get().interrupt();
        }
      }
    };
    Relabeler relabeler = Relabeler.onDisk(toNew, options, listener);
    AtomicReference<Result> result = new AtomicReference<>();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread thread = new Thread(() -> {
      try {
        if (interruptFirst) {
          Thread.currentThread().interrupt();
        }
        RelabelReport report = relabeler.run(List.of(tree, tree));
        result.set(new Result(report, Thread.currentThread().isInterrupted()));
      } catch (Throwable t) {
        thrown.set(t);
      }
    }, "caller");
    caller.set(thread);
    thread.start();
    thread.join(30_000);
    assertFalse(thread.isAlive(), "run() did not return within 30 s of the interrupt");
    if (thrown.get() != null) {
      throw new AssertionError("run() threw", thrown.get());
    }
    return result.get();
  }

  /** Every entry's label, and checks that each is OLD or NEW; returns how many are NEW. */
  private static long countNew() throws IOException {
    Map<String, String> others = new TreeMap<>();
    long changed = 0;
    try (Stream<Path> paths = Files.walk(tree)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        String label = DiskLabels.get(p);
        if (NEW.equals(label)) {
          changed++;
        } else if (!OLD.equals(label)) {
          others.put(p.toString(), label);
        }
      }
    }
    assertEquals(Map.of(), others, "entries with neither the old label nor the new");
    return changed;
  }

  @Test
  @Timeout(180)
  void interruptingTheCallerCancelsTheRunPromptly() throws Exception {
    int total = 1 + DIRECTORIES * (1 + FILES);
    for (int threads : new int[] {1, 2}) {
      resetToOld();
      Result result = runOnCaller(RelabelOptions.defaults().withThreads(threads), 500, false);
      RelabelReport report = result.report();
      assertTrue(report.cancelled(), report.toString());
      assertFalse(report.succeeded());
      assertTrue(result.interruptedAfter(), "the caller's interrupt flag must stay set");
      assertTrue(report.relabeled() >= 500 && report.relabeled() < total / 2,
          "-T " + threads + ": the run should have stopped soon after the interrupt: " + report);
      assertEquals(report.relabeled(), countNew(), "each change reported is a label written, and no other");
    }
  }

  @Test
  @Timeout(120)
  void aCallerInterruptedBeforeTheRunGetsACancelledReport() throws Exception {
    resetToOld();
    Result result = runOnCaller(RelabelOptions.defaults().withThreads(2), -1, true);
    assertTrue(result.report().cancelled(), result.report().toString());
    assertTrue(result.interruptedAfter());
    assertEquals(result.report().relabeled(), countNew());
    assertTrue(result.report().relabeled() < 1 + DIRECTORIES * (1 + FILES), result.report().toString());
  }
}
