import dev.relabel.match.*;
import dev.relabel.policy.*;
import java.nio.file.*;
import java.util.*;
// Average candidates a directory keeps (DirectoryMatch.candidateCount) over a tree walked from "/".
// javac -cp relabel-core/target/classes:GUAVA CandidateCount.java; java -cp ...:. CandidateCount /dev/shm/tree
public class CandidateCount {
  static long dirs, cands, entries;
  public static void main(String[] a) throws Exception {
    LabelMatcher m = LabelMatcher.compile(PolicyLoader.lenient().load(Path.of("/etc/selinux/default/contexts/files/file_contexts")));
    Path root = Path.of(a[0]);
    DirectoryMatch d = m.directory("/");
    walk(root, d);
    System.out.printf("dirs %d entries %d avg candidates %.1f%n", dirs, entries, (double) cands / dirs);
  }
  static void walk(Path p, DirectoryMatch d) throws Exception {
    dirs++; cands += d.candidateCount();
    try (var s = Files.newDirectoryStream(p)) {
      for (Path c : s) {
        entries++;
        if (Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS)) walk(c, d.enter(c.getFileName().toString()));
      }
    }
  }
}
