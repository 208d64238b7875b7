package dev.relabel.nativeio;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** The native layer on real files in a temp directory (as root; ext4 and tmpfs store security.* xattrs). */
class NativeIoTest {
  @TempDir Path dir;

  private static byte[] c(String s) {
    return NativeIo.nul(s.getBytes(US_ASCII));
  }

  @Test
  void readsEntriesWithTheirTypesAndSkipsDots() throws Exception {
    Files.createDirectory(dir.resolve("sub"));
    Files.writeString(dir.resolve("file"), "x");
    Files.createSymbolicLink(dir.resolve("link"), Path.of("/etc/passwd"));
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), dir.toString().getBytes(US_ASCII));
    try {
      List<DirEntry> entries = NativeIo.readDirectory(fd, new byte[0]);
      Set<String> seen = entries.stream().map(e -> new String(e.name(), US_ASCII) + ":" + e.type()).collect(Collectors.toSet());
      assertEquals(Set.of("sub:" + NativeIo.DT_DIR, "file:" + NativeIo.DT_REG, "link:" + NativeIo.DT_LNK), seen);
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  @Test
  void loadsLibrelabel() {
    // Maven's tests name the library built in relabel-core/target/native (relabel.native): the
    // walks they check read ahead, as bin/relabel's do.
    assertTrue(NativeIo.readsAhead(), "librelabel not loaded from " + System.getProperty("relabel.native"));
  }

  @ParameterizedTest(name = "getxattrat {0}")
  @ValueSource(booleans = {true, false})
  void readsAheadWhatEachEntrysOwnCallsRead(boolean xattrAt) throws Exception {
    if (xattrAt && !Kernel.linux().usesXattrAt()) {
      AttrTrees.unavailable("this kernel has no getxattrat (Linux 6.13 or later)");
    }
    // Enough names for several getdents64 chunks, and labels large enough that librelabel needs
    // several calls per chunk; beside them every kind of entry and of label read. On tmpfs, which
    // stores a value larger than ext4's block.
    Path tree = Files.createDirectory(dir.resolve("tree"));
    mounted(List.of("mount", "-t", "tmpfs", "-o", "size=64m", "relabel-test", tree.toString()), tree, () -> {
      for (int i = 0; i < 2000; i++) {
        Files.writeString(tree.resolve("n".repeat(100) + i), "");
      }
      Files.createDirectories(tree.resolve("sub/inner"));
      Path mnt = Files.createDirectory(tree.resolve("mnt"));
      Path source = Files.writeString(tree.resolve("source"), "");
      Path bound = Files.writeString(tree.resolve("bound"), "");
      mounted(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "relabel-test-inner", mnt.toString()), mnt,
          () -> mounted(List.of("mount", "--bind", source.toString(), bound.toString()), bound,
              () -> readAheadOnTmpfs(tree, xattrAt)));
    });
  }

  /** What a test does while a filesystem is mounted. */
  private interface WhileMounted {
    void run() throws Exception;
  }

  /** Runs {@code body} while {@code mount} has a filesystem mounted at {@code at}; unmounts it after. */
  private void mounted(List<String> mount, Path at, WhileMounted body) throws Exception {
    AttrTrees.mount(mount, dir);
    try {
      body.run();
    } finally {
      AttrTrees.check(List.of("umount", at.toString()), dir);
    }
  }

  private void readAheadOnTmpfs(Path tree, boolean xattrAt) throws Exception {
    boolean was = Kernel.linux().usesXattrAt();
    String longName = "n".repeat(100);
    Files.createSymbolicLink(tree.resolve("link"), tree.resolve("sub"));
    Files.createLink(tree.resolve("hard"), tree.resolve(longName + 1));
    Files.writeString(tree.resolve("big"), "");
    AttrTrees.check(List.of("mkfifo", tree.resolve("fifo").toString()), dir);
    Files.writeString(tree.resolve("unlabelled"), "");
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(tree.toString()), new byte[0]);
    Kernel kernel = Kernel.linux();
    try {
      for (int i = 0; i < 2000; i++) {
        String label = "system_u:object_r:t" + i + "_t:s0" + (i % 5 == 0 ? ":c" + "1".repeat(3000) : "");
        NativeIo.setLabel(fd, c(longName + i), c(label), new byte[0]);
      }
      NativeIo.setLabel(fd, c("link"), c("system_u:object_r:link_t:s0"), new byte[0]);
      NativeIo.setLabel(fd, c("sub"), c("system_u:object_r:sub_t:s0"), new byte[0]);
      NativeIo.setLabel(fd, c("mnt"), c("system_u:object_r:mounted_t:s0"), new byte[0]);
      NativeIo.setLabel(fd, c("fifo"), new byte[0], new byte[0]); // empty: lgetfilecon's ENOTSUP
      // Over LABEL_BUFFER (ERANGE), so written by setfattr
      AttrTrees.check(List.of("setfattr", "-n", "security.selinux", "-v", "x".repeat(5000), tree.resolve("big").toString()),
          dir);
      NativeIo.setLabel(fd, c("unlabelled"), c("system_u:object_r:gone_t:s0"), new byte[0]);
      AttrTrees.check(List.of("setfattr", "-x", "security.selinux", tree.resolve("unlabelled").toString()), dir);
      TestErrno.useXattrAt(xattrAt);
      List<DirEntry> ahead = NativeIo.readDirectoryAhead(fd, new byte[0]);
      int again = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(tree.toString()), new byte[0]);
      List<DirEntry> plain;
      try {
        plain = NativeIo.readDirectory(again, new byte[0]);
      } finally {
        NativeIo.closeQuietly(again);
      }
      assertEquals(2009, ahead.size());
      assertEquals(plain.stream().map(e -> new String(e.name(), US_ASCII) + e.type() + "/" + e.inode()).toList(),
          ahead.stream().map(e -> new String(e.name(), US_ASCII) + e.type() + "/" + e.inode()).toList(),
          "the same entries in the same order");
      int labelsRead = 0;
      for (DirEntry entry : ahead) {
        String name = new String(entry.name(), US_ASCII);
        assertEquals(kernel.stat(fd, entry.name(), new byte[0]), entry.stat(), name);
        if (name.equals("mnt")) {
          // Something is mounted there (it could be a hung NFS mount the admin excluded): its
          // label is left to the directory's visit, after the exclusions and -x.
          assertFalse(entry.labelRead(), name);
          assertEquals(Kernel.DT_DIR, entry.type());
          continue;
        }
        if (name.equals("bound")) {
          // A file bind-mounted from the tree's own "source": a walk may write it through that
          // name before it visits this one, so its label is read at the visit too.
          assertFalse(entry.labelRead(), name);
          assertEquals(entry.stat().inode(), kernel.stat(fd, c("source"), new byte[0]).inode());
          continue;
        }
        if (name.equals("hard") || name.equals(longName + 1)) {
          // Two names: another may be written first in a walk, so the label is read at the visit.
          assertFalse(entry.labelRead(), name);
          assertEquals(2, entry.stat().nlink());
          continue;
        }
        if (name.equals("big")) {
          // Over LABEL_BUFFER: left to the entry's own call, which fails as it always did.
          assertFalse(entry.labelRead(), name);
          assertEquals(Errno.ERANGE,
              assertThrows(NativeIoException.class, () -> kernel.getLabel(fd, entry.name(), new byte[0])).errno());
          continue;
        }
        assertTrue(entry.labelRead(), name);
        assertArrayEquals(kernel.getLabel(fd, entry.name(), new byte[0]), entry.label(), name);
        labelsRead++;
      }
      assertEquals(2004, labelsRead, "sub's too: a directory's link count is not its names'");
      assertEquals(3, ahead.stream().filter(e -> new String(e.name(), US_ASCII).equals("sub")).findFirst()
          .orElseThrow().stat().nlink());
      assertNull(ahead.stream().filter(e -> new String(e.name(), US_ASCII).equals("unlabelled")).findFirst()
          .orElseThrow().label(), "no label is null, not an error");
    } finally {
      TestErrno.useXattrAt(was);
      NativeIo.closeQuietly(fd);
    }
  }

  /**
   * Where the listing gives no type (DT_UNKNOWN: here ext4 made without its filetype feature, as
   * XFS without ftype and some network filesystems list), librelabel reads the status to tell a
   * directory, and the rest as where types are given.
   */
  @Test
  void readsAheadWhereTheListingGivesNoType() throws Exception {
    Path image = dir.resolve("untyped.img");
    Path tree = Files.createDirectory(dir.resolve("untyped"));
    AttrTrees.check(List.of("truncate", "-s", "32M", image.toString()), dir);
    AttrTrees.check(List.of("mkfs.ext4", "-q", "-O", "^filetype", image.toString()), dir);
    mounted(List.of("mount", "-o", "loop", image.toString(), tree.toString()), tree, () -> {
      Files.createDirectories(tree.resolve("sub/inner"));
      Path mnt = Files.createDirectory(tree.resolve("mnt"));
      mounted(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "relabel-test-inner", mnt.toString()), mnt,
          () -> readAheadUntyped(tree));
    });
  }

  private void readAheadUntyped(Path tree) throws Exception {
    for (int i = 0; i < 300; i++) {
      Files.writeString(tree.resolve("f" + i), "");
    }
    Files.createSymbolicLink(tree.resolve("link"), tree.resolve("sub"));
    Files.createLink(tree.resolve("hard"), tree.resolve("f1"));
    AttrTrees.check(List.of("mkfifo", tree.resolve("fifo").toString()), dir);
    Files.writeString(tree.resolve("unlabelled"), "");
    Kernel kernel = Kernel.linux();
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(tree.toString()), new byte[0]);
    try {
      for (String name : List.of("sub", "mnt", "link", "fifo", "lost+found")) {
        NativeIo.setLabel(fd, c(name), c("system_u:object_r:" + name.replace('+', '_') + "_t:s0"), new byte[0]);
      }
      for (int i = 0; i < 300; i++) {
        NativeIo.setLabel(fd, c("f" + i), c("system_u:object_r:t" + i + "_t:s0"), new byte[0]);
      }
      List<DirEntry> ahead = NativeIo.readDirectoryAhead(fd, new byte[0]);
      assertEquals(307, ahead.size());
      int labelsRead = 0;
      for (DirEntry entry : ahead) {
        String name = new String(entry.name(), US_ASCII);
        assertEquals(Kernel.DT_UNKNOWN, entry.type(), name);
        assertEquals(kernel.stat(fd, entry.name(), new byte[0]), entry.stat(), name);
        if (name.equals("mnt") || name.equals("hard") || name.equals("f1")) {
          // A mount's root (its status alone tells it is a directory), and two names of one file.
          assertFalse(entry.labelRead(), name);
          continue;
        }
        assertTrue(entry.labelRead(), name);
        assertArrayEquals(kernel.getLabel(fd, entry.name(), new byte[0]), entry.label(), name);
        labelsRead++;
      }
      assertEquals(304, labelsRead);
      assertNull(ahead.stream().filter(e -> new String(e.name(), US_ASCII).equals("unlabelled")).findFirst()
          .orElseThrow().label(), "no label is null, not an error");
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  @Test
  void setsAndReadsLabelsWithoutFollowingSymlinks() throws Exception {
    Path target = dir.resolve("target");
    Files.writeString(target, "x");
    Files.createSymbolicLink(dir.resolve("link"), target);
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), new byte[0]);
    try {
      assertNull(NativeIo.getLabel(fd, c("target"), new byte[0]));
      byte[] label = c("system_u:object_r:bin_t:s0");
      NativeIo.setLabel(fd, c("link"), label, new byte[0]);
      assertArrayEquals(label, NativeIo.getLabel(fd, c("link"), new byte[0]));
      assertNull(NativeIo.getLabel(fd, c("target"), new byte[0]), "the symlink's target must not be touched");
      NativeIo.setLabel(fd, NativeIo.self(), c("system_u:object_r:tmp_t:s0"), new byte[0]);
      assertArrayEquals(c("system_u:object_r:tmp_t:s0"), NativeIo.getLabel(fd, NativeIo.self(), new byte[0]));
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  @Test
  void refusesToOpenASymlinkAsADirectory() throws Exception {
    Files.createSymbolicLink(dir.resolve("link"), Path.of("/etc"));
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), new byte[0]);
    try {
      NativeIoException e = assertThrows(NativeIoException.NotFollowedException.class,
          () -> NativeIo.openDirectory(fd, c("link"), "link".getBytes(US_ASCII)));
      assertTrue(e.errno() == Errno.ELOOP || e.errno() == Errno.ENOTDIR, "errno " + e.errno());
      assertTrue(e.getMessage().contains("link"), e.getMessage());
      assertThrows(NativeIoException.NoSuchEntryException.class, () -> NativeIo.openDirectory(fd, c("gone"), new byte[0]));
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  @Test
  void opensForReadingNeitherThroughASymlinkNorWaitingOnAFifo() throws Exception {
    Files.writeString(dir.resolve("file"), "x");
    Files.createSymbolicLink(dir.resolve("link"), dir.resolve("file"));
    AttrTrees.check(List.of("mkfifo", dir.resolve("fifo").toString()), dir);
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), new byte[0]);
    try {
      int file = NativeIo.openForReading(fd, c("file"), new byte[0]);
      assertEquals(Files.getAttribute(dir.resolve("file"), "unix:ino"),
          NativeIo.stat(file, NativeIo.self(), new byte[0]).inode(), "the descriptor is not the file's");
      NativeIo.closeQuietly(file);
      assertThrows(NativeIoException.NotFollowedException.class, () -> NativeIo.openForReading(fd, c("link"), new byte[0]));
      // a FIFO with no writer: opened at once (O_NONBLOCK), and its status says what it is
      int fifo = NativeIo.openForReading(fd, c("fifo"), new byte[0]);
      assertEquals(0010000, NativeIo.stat(fifo, NativeIo.self(), new byte[0]).fileFormat());
      NativeIo.closeQuietly(fifo);
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  @Test
  void opensOnItsParentsMountOnlyADirectoryOnIt() throws Exception {
    Path sub = Files.createDirectory(dir.resolve("sub"));
    Files.createSymbolicLink(dir.resolve("link"), Path.of("/etc"));
    Files.writeString(dir.resolve("file"), "x");
    Path mnt = Files.createDirectory(dir.resolve("mnt"));
    AttrTrees.mount(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "relabel-test", mnt.toString()), dir);
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), new byte[0]);
    try {
      int opened = NativeIo.openDirectoryOnMount(fd, c("sub"));
      assertTrue(opened >= 0, "openat2 (Linux 5.6+) opens a directory on the same mount");
      try {
        assertEquals(Files.getAttribute(sub, "unix:ino"), NativeIo.stat(opened, NativeIo.self(), new byte[0]).inode());
      } finally {
        NativeIo.closeQuietly(opened);
      }
      assertEquals(-1, NativeIo.openDirectoryOnMount(fd, c("mnt")), "a mount point");
      assertEquals(-1, NativeIo.openDirectoryOnMount(fd, c("link")), "a symlink");
      assertEquals(-1, NativeIo.openDirectoryOnMount(fd, c("file")), "a file");
      assertEquals(-1, NativeIo.openDirectoryOnMount(fd, c("gone")), "nothing");
      int again = NativeIo.openDirectoryOnMount(fd, c("sub"));
      assertTrue(again >= 0, "a refusal does not turn openat2 off");
      NativeIo.closeQuietly(again);
    } finally {
      NativeIo.closeQuietly(fd);
      AttrTrees.check(List.of("umount", mnt.toString()), dir);
    }
  }

  @Test
  void statsWithoutFollowing() throws Exception {
    Files.writeString(dir.resolve("file"), "x");
    Files.createLink(dir.resolve("hard"), dir.resolve("file"));
    Files.createSymbolicLink(dir.resolve("link"), dir.resolve("file"));
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), new byte[0]);
    try {
      FileStat file = NativeIo.stat(fd, c("file"), new byte[0]);
      assertEquals(0100000, file.fileFormat());
      assertEquals(2, file.nlink());
      assertEquals(0120000, NativeIo.stat(fd, c("link"), new byte[0]).fileFormat());
      assertEquals(0040000, NativeIo.stat(fd, NativeIo.self(), new byte[0]).fileFormat());
      assertEquals(file.inode(), NativeIo.stat(fd, c("hard"), new byte[0]).inode());
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  /**
   * A name is written to native memory only when it differs from the one held there: a caller that
   * reuses one array with new contents, names with and without their NUL, and a prefix of the name
   * held all reach their own entry.
   */
  @Test
  void eachCallReachesTheNameItIsGivenNow() throws Exception {
    Files.writeString(dir.resolve("ab"), "x");
    Files.createDirectory(dir.resolve("ac"));
    Files.createSymbolicLink(dir.resolve("a"), Path.of("ab"));
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), new byte[0]);
    try {
      byte[] name = "ab".getBytes(US_ASCII);
      assertEquals(0100000, NativeIo.stat(fd, name, name).fileFormat());
      assertNull(NativeIo.getLabel(fd, name, name));
      name[1] = 'c';
      assertEquals(0040000, NativeIo.stat(fd, name, name).fileFormat());
      assertEquals(0040000, NativeIo.stat(fd, c("ac"), name).fileFormat());
      assertEquals(0120000, NativeIo.stat(fd, "a".getBytes(US_ASCII), name).fileFormat());
      assertEquals(0040000, NativeIo.stat(fd, NativeIo.self(), name).fileFormat());
      NativeIo.setLabel(fd, c("ab"), c("system_u:object_r:etc_t:s0"), name);
      assertArrayEquals(c("system_u:object_r:etc_t:s0"), NativeIo.getLabel(fd, "ab".getBytes(US_ASCII), name));
      assertNull(NativeIo.getLabel(fd, c("ac"), name));
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  /** A label is first read with a small buffer (as libselinux does); a longer one is read again whole. */
  @Test
  void readsLabelsLongerThanTheFirstRead() throws Exception {
    Files.writeString(dir.resolve("file"), "x");
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), new byte[0]);
    try {
      for (int length : new int[] {254, 255, 256, 257, 1000, 3000}) {
        byte[] label = c("system_u:object_r:x_t:s0:" + "c".repeat(length - 25));
        assertEquals(length + 1, label.length);
        NativeIo.setLabel(fd, c("file"), label, new byte[0]);
        assertArrayEquals(label, NativeIo.getLabel(fd, c("file"), new byte[0]), "length " + length);
      }
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  /** A whole path longer than the thread's name buffer reaches the kernel whole (and is refused there). */
  @Test
  void aPathLongerThanTheNameBufferIsPassedWhole() throws Exception {
    Files.writeString(dir.resolve("file"), "x");
    byte[] longPath = ("/" + "x/".repeat(3000) + "file").getBytes(US_ASCII);
    NativeIoException e = assertThrows(NativeIoException.class,
        () -> NativeIo.stat(NativeIo.AT_FDCWD, longPath, longPath));
    assertEquals(Errno.ENAMETOOLONG, e.errno());
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), new byte[0]);
    try {
      assertEquals(0100000, NativeIo.stat(fd, c("file"), new byte[0]).fileFormat());
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  /** Inodes in use as GNU stat -f counts them (%c total, %d free), read just before and after ours. */
  @Test
  void countsInodesInUseAsStatDoes() throws Exception {
    long before = statInodesInUse(dir);
    long ours = NativeIo.inodesInUse(c(dir.toString()), new byte[0]);
    long after = statInodesInUse(dir);
    // Other processes create and delete files meanwhile: ours lies within what stat saw, give or take.
    long slack = 1000;
    assertTrue(ours > 0, "inodes in use: " + ours);
    assertTrue(ours >= Math.min(before, after) - slack && ours <= Math.max(before, after) + slack,
        "ours " + ours + ", stat -f " + before + " then " + after);
  }

  @Test
  void statfsOfAMissingPathFailsWithItsErrno() {
    NativeIoException e = assertThrows(NativeIoException.class,
        () -> NativeIo.inodesInUse(c(dir.resolve("missing").toString()), "missing".getBytes(US_ASCII)));
    assertEquals(Errno.ENOENT, e.errno());
  }

  @Test
  void aDirectoryIsNoTerminal() throws Exception {
    int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(dir.toString()), new byte[0]);
    try {
      assertEquals(false, NativeIo.isTerminal(fd));
    } finally {
      NativeIo.closeQuietly(fd);
    }
  }

  private static long statInodesInUse(Path path) throws Exception {
    Process stat = new ProcessBuilder("stat", "-f", "-c", "%c %d", path.toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String[] fields = new String(stat.getInputStream().readAllBytes(), US_ASCII).trim().split(" ");
    assertEquals(0, stat.waitFor());
    return Long.parseLong(fields[0]) - Long.parseLong(fields[1]);
  }

  /**
   * One statx of an open directory gives its status (the same as {@link NativeIo#stat}'s) and
   * whether it is the root of a mount: a bind mount of this very filesystem is one, its covered
   * directory's parent is not. On this kernel (5.8 or later) statx can tell.
   */
  @Test
  void statOfAnOpenDirectoryTellsTheRootOfABindMount(@TempDir Path scratch) throws Exception {
    Path source = Files.createDirectories(dir.resolve("source"));
    Path mountPoint = Files.createDirectories(dir.resolve("mounted"));
    AttrTrees.mount(List.of("mount", "--bind", source.toString(), mountPoint.toString()), scratch);
    try {
      for (Path opened : List.of(dir, mountPoint)) {
        int fd = NativeIo.openDirectory(NativeIo.AT_FDCWD, c(opened.toString()), new byte[0]);
        try {
          OpenedStat stat = NativeIo.statOpened(fd, new byte[0]);
          assertEquals(NativeIo.stat(fd, NativeIo.self(), new byte[0]), stat.stat());
          assertEquals(Optional.of(opened.equals(mountPoint)), stat.mountRoot(), opened.toString());
        } finally {
          NativeIo.closeQuietly(fd);
        }
      }
    } finally {
      AttrTrees.unmountAll(List.of(mountPoint), scratch);
    }
  }
}
