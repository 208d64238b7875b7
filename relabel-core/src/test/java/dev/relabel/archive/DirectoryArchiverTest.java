package dev.relabel.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DirectoryArchiver} while someone who may write in DIR changes it: what it reads stays
 * inside DIR. The archive's own content and fields are TarCommandTest's and TarDifferentialIT's.
 */
class DirectoryArchiverTest {
  private static final int STALL_AFTER = 1 << 20;

  @TempDir
  Path base;

  /**
   * The archiver is held inside directory d (its output stalled while it copies d/a, 8 MiB), d is
   * renamed and a symlink to a directory outside DIR put in its place, then the archive goes on:
   * d/b comes from the directory it listed, never from outside, as the paths DIR/d/b, resolved
   * again for each entry, would have taken it.
   */
  @Test
  void aDirectorySwappedForASymlinkMidArchiveLetsNothingFromOutsideIn() throws Exception {
    Path tree = Files.createDirectories(base.resolve("tree/d"));
    Files.write(tree.resolve("a"), new byte[8 << 20]);
    Files.writeString(tree.resolve("b"), "inside DIR\n");
    Path outside = Files.createDirectories(base.resolve("outside"));
    Files.writeString(outside.resolve("b"), "SECRET from outside\n");
    Path policy = Files.writeString(base.resolve("file_contexts"), "/.*\tsystem_u:object_r:etc_t:s0\n");
    TarLabeller labeller = TarLabeller.builder(LabelMatcher.compile(PolicyLoader.validating().load(policy))).build();

    CountDownLatch stalled = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    StallingOutput out = new StallingOutput(stalled, resume);
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try {
      Future<?> run = executor.submit(() -> DirectoryArchiver.archive(base.resolve("tree"), labeller, out));
      assertTrue(stalled.await(2, TimeUnit.MINUTES), "the archive never reached d/a");
      Files.move(tree, base.resolve("tree/d-moved"));
      Files.createSymbolicLink(tree, outside);
      resume.countDown();
      run.get(2, TimeUnit.MINUTES);
    } finally {
      resume.countDown();
      executor.shutdownNow();
    }
    String archive = out.written().toString(StandardCharsets.ISO_8859_1);
    assertFalse(archive.contains("SECRET"), "a file from outside DIR is in the archive");
    assertTrue(archive.contains("inside DIR\n"), "d/b is not in the archive");
    assertEquals(1, count(archive, "./d/b"), "d/b is not in the archive once");
  }

  private static int count(String text, String part) {
    int found = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      found++;
    }
    return found;
  }

  /** Keeps what is written; the first write past {@link #STALL_AFTER} bytes waits for resume. */
  private static final class StallingOutput extends OutputStream {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CountDownLatch stalled;
    private final CountDownLatch resume;

    StallingOutput(CountDownLatch stalled, CountDownLatch resume) {
      this.stalled = stalled;
      this.resume = resume;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      bytes.write(b, off, len);
      if (bytes.size() >= STALL_AFTER && stalled.getCount() > 0) {
        stalled.countDown();
        try {
          resume.await();
        } catch (InterruptedException e) {
          throw new InterruptedIOException();
        }
      }
    }

    synchronized ByteArrayOutputStream written() {
      return bytes;
    }
  }
}
