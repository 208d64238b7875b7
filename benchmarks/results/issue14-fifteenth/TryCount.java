package dev.relabel.match;

import dev.relabel.policy.FileType;
import dev.relabel.policy.PolicyLoader;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;

// How many of a directory's candidate specs a lookup tries, over a tree walked from "/" (the
// trie's runs aside), without and with the name heads (CompiledSpec.childNameHead), and the specs
// tried in vain most often. Compiled into the match package on the class path:
// javac -cp relabel-core/target/classes:GUAVA -d OUT TryCount.java; java -cp ...:OUT dev.relabel.match.TryCount /dev/shm/tree
public class TryCount {
  static long lookups;
  static long triesWithoutHeads;
  static long triesWithHeads;
  static final Map<String, long[]> inVain = new HashMap<>();

  public static void main(String[] args) throws Exception {
    LabelMatcher matcher = LabelMatcher.compile(
        PolicyLoader.lenient().load(Path.of("/etc/selinux/default/contexts/files/file_contexts")));
    walk(matcher, Path.of(args[0]), matcher.directory("/"));
    System.out.printf("lookups %d; specs tried per lookup: %.2f without name heads, %.2f with%n", lookups,
        (double) triesWithoutHeads / lookups, (double) triesWithHeads / lookups);
    System.out.println("tried in vain (without heads, with heads) spec type:");
    inVain.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0])).limit(20)
        .forEach(e -> System.out.printf("%9d %9d %s%n", e.getValue()[0], e.getValue()[1], e.getKey()));
  }

  private static Object field(DirectoryMatch directory, String name) throws Exception {
    Field field = DirectoryMatch.class.getDeclaredField(name);
    field.setAccessible(true);
    return field.get(directory);
  }

  private static FileType type(BasicFileAttributes attributes) {
    return attributes.isDirectory() ? FileType.DIRECTORY
        : attributes.isSymbolicLink() ? FileType.SYMLINK
        : attributes.isRegularFile() ? FileType.REGULAR_FILE
        : FileType.CHAR_DEVICE;
  }

  private static void walk(LabelMatcher matcher, Path path, DirectoryMatch directory) throws Exception {
    int[] candidates = (int[]) field(directory, "childCandidates");
    int[] progress = (int[]) field(directory, "childProgress");
    String[] heads = (String[]) field(directory, "childNameHeads");
    String prefix = (String) field(directory, "childPrefix");
    try (var children = Files.newDirectoryStream(path)) {
      for (Path child : children) {
        String name = child.getFileName().toString();
        BasicFileAttributes attributes = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        lookups++;
        String key = prefix + name;
        for (int k = 0; k < candidates.length; k++) {
          CompiledSpec spec = matcher.spec(candidates[k]);
          triesWithoutHeads++;
          boolean headHolds = heads[k] == null || name.startsWith(heads[k]);
          triesWithHeads += headHolds ? 1 : 0;
          if (spec.fileType.admits(type(attributes)) && spec.matchesChild(key, prefix.length(), progress[k])) {
            break;
          }
          long[] counts = inVain.computeIfAbsent(spec.spec.regex() + " " + spec.fileType, x -> new long[2]);
          counts[0]++;
          counts[1] += headHolds ? 1 : 0;
        }
        if (attributes.isDirectory()) {
          walk(matcher, child, directory.enter(name));
        }
      }
    }
  }
}
