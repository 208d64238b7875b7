package dev.relabel.walk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which mounts inside a root may show an entry under a second name, decided from mountinfo lines
 * (ID, parent, major:minor, the filesystem's directory shown, the mount point, options, "-", type,
 * source, super options). The filesystem mounted at / is 8:1 throughout.
 */
class BoundTwiceTest {
  private static final String ROOT_FS = "1 0 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n";

  /** The parts shown twice, in path order. */
  private static List<String> points(String root, String mountinfo) {
    return BoundTwice.repeatedParts(root, MountTable.parse(ROOT_FS + mountinfo)).stream().sorted().toList();
  }

  /** The directory cycles, in path order. */
  private static List<String> cycles(String root, String mountinfo) {
    return BoundTwice.cycles(root, MountTable.parse(ROOT_FS + mountinfo)).stream().sorted().toList();
  }

  private static String bind(String fsDirectory, String point) {
    return "9 1 8:1 " + fsDirectory + " " + point + " rw,relatime shared:1 - ext4 /dev/sda1 rw\n";
  }

  @Test
  void noneWithoutMountsOfTheRootsFilesystemInsideIt() {
    assertEquals(List.of(), points("/srv", ""));
    assertEquals(List.of(), points("/srv", "5 1 0:30 / /srv/tmp rw - tmpfs tmpfs rw\n"), "another filesystem");
    assertEquals(List.of(), points("/srv", bind("/var/www", "/var/lib/www")), "a bind mount outside the root");
  }

  @Test
  void aDirectoryOfTheTreeBoundOntoAnotherOfItsNames() {
    assertEquals(List.of("/srv/www"), points("/srv", bind("/srv/data/www", "/srv/www")));
    assertEquals(List.of("/srv/www"), points("/", bind("/srv/data/www", "/srv/www")), "walked from /");
    assertEquals(List.of("/srv/etc/hosts"), points("/srv", bind("/srv/hosts", "/srv/etc/hosts")), "a file");
    assertEquals(List.of("/srv/data/www"), points("/srv/data", bind("/srv", "/srv/data/www")),
        "a directory holding the root bound beneath it: the root's entries are shown again");
  }

  @Test
  void aSourceTheWalkDoesNotReachShowsEachNameOnce() {
    // The container runtime's case: /etc/hosts bound from storage the walk never reaches.
    assertEquals(List.of(), points("/srv/tree", bind("/var/lib/containers/hosts", "/srv/tree/etc/hosts")));
  }

  @Test
  void oneSourceBoundInTwoPlacesInside() {
    String both = bind("/var/lib/x", "/srv/a") + bind("/var/lib/x/y", "/srv/b");
    assertEquals(List.of("/srv/a/y", "/srv/b"), points("/srv", both), "/srv/a/y and /srv/b show the same");
  }

  @Test
  void theRootsOwnMountShowsOnlyPartOfTheFilesystem() {
    // /srv is itself a bind mount of /data/srv: a bind of /data inside it shows /srv's entries again.
    String own = bind("/data/srv", "/srv");
    assertEquals(List.of(), points("/srv", own + bind("/data", "/srv/all")),
        "/srv again, at /srv/all/srv: a directory cycle, never walked");
    assertEquals(List.of("/srv/all/srv"), cycles("/srv", own + bind("/data", "/srv/all")));
    assertEquals(List.of("/srv/w"), points("/srv", own + bind("/data/srv/www", "/srv/w")));
    assertEquals(List.of(), points("/srv", own + bind("/data/other", "/srv/o")), "outside what /srv shows");
  }

  @Test
  void aMountTheWalkDoesNotEnterOrThatIsCovered() {
    String tmpfs = "5 1 0:30 / /srv/tmp rw - tmpfs tmpfs rw\n";
    assertEquals(List.of(), points("/srv", tmpfs + bind("/srv/data", "/srv/tmp/data")), "beneath another filesystem");
    assertEquals(List.of(), points("/srv", bind("/srv/data", "/srv/www") + "6 1 0:31 / /srv/www rw - tmpfs tmpfs rw\n"),
        "covered by a later mount at the same point");
  }

  @Test
  void aDirectoryBoundOntoItselfShowsEachNameOnce() {
    // mount --bind /srv/data /srv/data, then remount,ro: the mount covers its own source.
    assertEquals(List.of(), points("/srv", bind("/srv/data", "/srv/data")));
    assertEquals(List.of(), points("/", bind("/usr", "/usr")));
    assertEquals(List.of("/srv/data/www", "/srv/www"),
        points("/srv", bind("/srv/data", "/srv/data") + bind("/srv/data/www", "/srv/www")),
        "a part of it bound again elsewhere: the two mounts show that part twice");
  }

  @Test
  void aSourceCoveredByAnotherFilesystemIsNotShownTwice() {
    // /srv/data is a tmpfs now: what the root filesystem holds at /srv/data/www is hidden there.
    String tmpfs = "5 1 0:30 / /srv/data rw - tmpfs tmpfs rw\n";
    assertEquals(List.of(), points("/srv", bind("/srv/data/www", "/srv/www") + tmpfs));
  }

  @Test
  void escapedPointsAreUnescaped() {
    assertEquals(List.of("/srv/a b"), points("/srv", bind("/srv/data", "/srv/a\\040b")));
  }

  @Test
  void aBindMountOfADirectoryTheWalkIsInsideIsACycle() {
    assertEquals(List.of("/mnt"), cycles("/", bind("/", "/mnt")), "the root bound beneath itself");
    assertEquals(List.of("/srv/a/b/x"), cycles("/srv", bind("/srv/a", "/srv/a/b/x")),
        "a directory onto one of its own subdirectories");
    assertEquals(List.of("/srv/a/b/x"), cycles("/srv/a", bind("/srv/a", "/srv/a/b/x")), "the root itself");
    assertEquals(List.of("/srv/data/www/data"), cycles("/srv/data", bind("/srv", "/srv/data/www")),
        "a directory above the root: the walk meets the root again one level down");
    assertEquals(List.of(), points("/", bind("/", "/mnt")), "nothing behind a cycle is walked, so nothing is shown twice");
  }

  @Test
  void noCycleWhereTheMountShowsNoDirectoryTheWalkIsInside() {
    assertEquals(List.of(), cycles("/srv", bind("/srv/data/www", "/srv/www")), "a sibling");
    assertEquals(List.of(), cycles("/srv/a/b", bind("/srv/a/b/c", "/srv/a/b/d")));
    assertEquals(List.of(), cycles("/srv", bind("/srv/a", "/srv/a")), "a directory bound onto itself");
    assertEquals(List.of(), cycles("/srv", "5 1 0:30 / /srv/tmp rw - tmpfs tmpfs rw\n"), "another filesystem");
    assertEquals(List.of(), cycles("/srv/a", bind("/", "/mnt")), "outside the root");
    assertEquals(List.of(), cycles("/srv", bind("/", "/mnt") + bind("/srv", "/mnt/x")), "in a mount outside the root");
  }

  @Test
  void nothingBeneathACycleIsReached() {
    assertEquals(List.of("/mnt"), cycles("/", bind("/", "/mnt") + bind("/srv", "/mnt/srv/x")));
  }

  /**
   * What a part shown twice holds is listed before the walk, by a walk of its own: a directory there
   * that is one above it, which the table does not show (a filesystem showing a directory inside
   * itself), is not entered either, and the listing ends.
   */
  @Test
  void theListingOfAPartShownTwiceEntersNoCycleTheTableDoesNotShow() throws Exception {
    try (java.nio.file.FileSystem fs = JimfsFileTree.newFileSystem()) {
      java.nio.file.Path www = java.nio.file.Files.createDirectories(fs.getPath("/srv/www/loop")).getParent();
      java.nio.file.Files.createFile(www.resolve("index.html"));
      JimfsFileTree looping = JimfsFileTree.showingItselfAs(fs, "loop");
      java.util.Set<Walk.Inode> inodes = BoundTwice.find(looping, "/srv",
          MountTable.parse(ROOT_FS + bind("/srv/data/www", "/srv/www")));
      assertEquals(2, inodes.size(), "www and its file: " + inodes);
      assertEquals(0, looping.selfOpens(), "the cycle was not entered");
      assertEquals(0, looping.openDirectories());
    }
  }

  @Test
  void onlyAFilesystemMountedInTwoPlacesCanShowAnEntryTwice() {
    assertEquals(false, BoundTwice.anyMountedTwice(MountTable.parse(ROOT_FS + "5 1 0:30 / /srv/tmp rw - tmpfs tmpfs rw\n")));
    assertEquals(true, BoundTwice.anyMountedTwice(MountTable.parse(ROOT_FS + bind("/srv/a", "/srv/b"))));
    assertEquals(true, BoundTwice.anyMountedTwice(MountTable.parse(ROOT_FS + bind("/", "/mnt"))));
  }
}
