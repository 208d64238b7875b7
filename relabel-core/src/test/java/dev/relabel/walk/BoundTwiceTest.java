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

  private static List<String> points(String root, String mountinfo) {
    return BoundTwice.repeatingMountPoints(root, MountTable.parse(ROOT_FS + mountinfo));
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
    assertEquals(List.of("/srv/a", "/srv/b"), points("/srv", both));
  }

  @Test
  void theRootsOwnMountShowsOnlyPartOfTheFilesystem() {
    // /srv is itself a bind mount of /data/srv: a bind of /data inside it shows /srv's entries again.
    String own = bind("/data/srv", "/srv");
    assertEquals(List.of("/srv/all"), points("/srv", own + bind("/data", "/srv/all")));
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
  void escapedPointsAreUnescaped() {
    assertEquals(List.of("/srv/a b"), points("/srv", bind("/srv/data", "/srv/a\\040b")));
  }
}
