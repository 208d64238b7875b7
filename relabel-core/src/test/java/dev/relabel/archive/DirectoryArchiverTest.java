package dev.relabel.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.SmallStack;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyLoader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
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
    TarLabeller labeller = labeller();

    StallingOutput out = new StallingOutput();
    Throwable failure = archiveChangedMeanwhile(base.resolve("tree"), labeller, out, () -> {
      Files.move(tree, base.resolve("tree/d-moved"));
      Files.createSymbolicLink(tree, outside);
    });
    assertEquals(null, failure);
    String archive = out.written().toString(StandardCharsets.ISO_8859_1);
    assertFalse(archive.contains("SECRET"), "a file from outside DIR is in the archive");
    assertTrue(archive.contains("inside DIR\n"), "d/b is not in the archive");
    assertEquals(1, count(archive, "./d/b"), "d/b is not in the archive once");
  }

  /**
   * A tree thousands of directories deep (its owner may make one; GNU tar 1.34, recursive, dies of
   * SIGSEGV ~10,000 levels down) is archived whole, on a thread whose stack a walk that recursed
   * per level would overflow (it did: StackOverflowError, nothing written).
   */
  @Test
  void aTreeThousandsDeepIsArchivedWhole() throws Exception {
    Path tree = Files.createDirectory(base.resolve("tree"));
    int depth = 3_000;
    // Java's file API fails past PATH_MAX; Python's goes one relative component at a time.
    AttrTrees.check(List.of("python3", "-c", "import os, sys\nos.chdir(sys.argv[1])\nfor i in range(" + depth
        + "): os.mkdir('d'); os.chdir('d')\nopen('leaf', 'w').close()\n", tree.toString()), base);
    try {
      TarLabeller labeller = labeller();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      SmallStack.call(() -> DirectoryArchiver.archive(tree, labeller, out));

      String deepest = "./" + "d/".repeat(depth) + "leaf";
      List<String> names = new ArrayList<>();
      String leafLabel = null;
      try (TarArchiveInputStream archive = new TarArchiveInputStream(new ByteArrayInputStream(out.toByteArray()))) {
        for (TarArchiveEntry entry = archive.getNextEntry(); entry != null; entry = archive.getNextEntry()) {
          names.add(entry.getName());
          if (entry.getName().equals(deepest)) {
            leafLabel = entry.getExtraPaxHeader("SCHILY.xattr.security.selinux");
          }
        }
      }
      assertEquals(depth + 2, names.size(), "./, each directory and the leaf");
      assertEquals("./", names.get(0));
      assertEquals(deepest, names.get(names.size() - 1));
      assertEquals("system_u:object_r:etc_t:s0\0", leafLabel);
    } finally {
      AttrTrees.check(List.of("rm", "-rf", tree.toString()), base); // Java's file API cannot delete it either
    }
  }

  /**
   * Below {@link DirectoryArchiver#OPEN_LEVELS} levels a directory gives its descriptor back while
   * its subdirectory is walked and reopens itself through the subdirectory's {@code ..}: held at
   * the leaf of a chain 100 deep (its output stalled while it copies the leaf, 8 MiB), level 80 is
   * moved to the top of DIR; on the way back up, level 80 is still itself (a move keeps the inode)
   * but its {@code ..} is now DIR, not level 79: the archive stops there, "changed while it was
   * archived", rather than go on in a directory it did not come from.
   */
  @Test
  void aDeepDirectoryMovedWhileTheWalkIsBelowItStopsTheArchive() throws Exception {
    Path tree = Files.createDirectory(base.resolve("tree"));
    int depth = 100;
    int moved = 80;
    Path chain = Files.createDirectories(tree.resolve("d" + "/d".repeat(depth - 1)));
    Files.write(chain.resolve("leaf"), new byte[8 << 20]);
    TarLabeller labeller = labeller();

    Path level = tree.resolve("d" + "/d".repeat(moved - 1));
    Throwable failure = archiveChangedMeanwhile(tree, labeller, new StallingOutput(),
        () -> Files.move(level, tree.resolve("moved")));
    assertTrue(failure instanceof IOException, () -> "the archive did not fail: " + failure);
    assertEquals(tree + "/d".repeat(moved - 1) + ": changed while it was archived", failure.getMessage());
  }

  /**
   * A name (or a hard link's target) of 100 bytes or more: a GNU long name first, then the member
   * header with the first 100 bytes in its field, as GNU tar writes it and as Commons Compress did
   * before the archiver skipped its quadratic search for them.
   */
  @Test
  void aLongNamesHeaderFieldHoldsItsFirstHundredBytes() throws Exception {
    Path deep = Files.createDirectories(base.resolve("tree/" + "d".repeat(120)));
    Files.writeString(deep.resolve("first-" + "f".repeat(100)), "x\n");
    Files.createLink(deep.resolve("second-" + "s".repeat(100)), deep.resolve("first-" + "f".repeat(100)));
    TarLabeller labeller = labeller();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DirectoryArchiver.archive(base.resolve("tree"), labeller, out);

    byte[] archive = out.toByteArray();
    String longName = null;
    String longLink = null;
    List<String> checked = new ArrayList<>();
    for (int at = 0; at + 512 <= archive.length && archive[at] != 0; ) {
      char flag = (char) archive[at + 156];
      long size = Long.parseLong(field(archive, at + 124, 12).trim(), 8);
      int data = at + 512;
      at = data + (int) ((size + 511) / 512 * 512);
      switch (flag) {
        case 'L' -> longName = field(archive, data, (int) size);
        case 'K' -> longLink = field(archive, data, (int) size);
        case 'x' -> { }
        default -> {
          if (longName != null) {
            assertEquals(longName.substring(0, 100), field(archive, data - 512, 100), "the name field");
            checked.add(longName);
          }
          if (longLink != null) {
            assertEquals(longLink.substring(0, 100), field(archive, data - 512 + 157, 100), "the link name field");
            checked.add("link to " + longLink);
          }
          longName = null;
          longLink = null;
        }
      }
    }
    String directory = "./" + "d".repeat(120);
    String first = directory + "/first-" + "f".repeat(100);
    assertEquals(List.of(directory + "/", first, directory + "/second-" + "s".repeat(100), "link to " + first), checked);
  }

  /** The field's bytes up to its first NUL, as ISO-8859-1. */
  private static String field(byte[] archive, int offset, int length) {
    int end = offset;
    while (end < offset + length && archive[end] != 0) {
      end++;
    }
    return new String(archive, offset, end - offset, StandardCharsets.ISO_8859_1);
  }


  private static int count(String text, String part) {
    int found = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      found++;
    }
    return found;
  }

  /** A labeller giving every entry etc_t. */
  private TarLabeller labeller() throws Exception {
    Path policy = Files.writeString(base.resolve("file_contexts"), "/.*\tsystem_u:object_r:etc_t:s0\n");
    return TarLabeller.builder(LabelMatcher.compile(PolicyLoader.validating().load(policy))).build();
  }

  @FunctionalInterface
  private interface Change {
    void make() throws IOException;
  }

  /**
   * Archives {@code tree} into {@code out}, makes {@code change} while the archiver is held in its
   * output (past {@link #STALL_AFTER} bytes, the walk blocked behind it), then lets it finish:
   * null, or what the archive failed with.
   */
  private static Throwable archiveChangedMeanwhile(Path tree, TarLabeller labeller, StallingOutput out, Change change)
      throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try {
      Future<?> run = executor.submit(() -> DirectoryArchiver.archive(tree, labeller, out));
      assertTrue(out.stalled.await(2, TimeUnit.MINUTES), "the archive never stalled");
      change.make();
      out.resume.countDown();
      run.get(2, TimeUnit.MINUTES);
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } finally {
      out.resume.countDown();
      executor.shutdownNow();
    }
  }

  /** Keeps what is written; the first write past {@link #STALL_AFTER} bytes waits for resume. */
  private static final class StallingOutput extends OutputStream {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final CountDownLatch stalled = new CountDownLatch(1);
    final CountDownLatch resume = new CountDownLatch(1);

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
