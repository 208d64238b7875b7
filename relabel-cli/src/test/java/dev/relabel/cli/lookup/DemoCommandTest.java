package dev.relabel.cli.lookup;

import dev.relabel.cli.Cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@code relabel demo}: the README's first command, on the bundled sample policy. */
class DemoCommandTest {
  @Test
  void labelsTheSampleTreeAndCleansUp() throws Exception {
    Cli.Result result = Cli.run("demo", "-T", "2");
    assertEquals(0, result.status(), result.toString());
    List<String> lines = result.lines();
    Map<String, String> labels = lines.stream()
        .filter(line -> line.startsWith("Relabeled "))
        .collect(Collectors.toMap(
            line -> line.substring("Relabeled ".length(), line.indexOf(" from ")).replaceFirst(".*/root", ""),
            line -> line.substring(line.indexOf(" to ") + 4)));
    assertEquals("system_u:object_r:shadow_t:s0", labels.get("/etc/shadow"));
    assertEquals("unconfined_u:object_r:ssh_home_t:s0", labels.get("/home/alice/.ssh/id_ed25519"));
    assertEquals("system_u:object_r:httpd_sys_script_exec_t:s0", labels.get("/var/www/cgi-bin/form.cgi"));
    assertEquals("system_u:object_r:root_t:s0", labels.get(""));
    assertFalse(labels.containsKey("/tmp/scratch"), "<<none>> must be left alone");
    assertTrue(lines.stream().allMatch(line -> !line.startsWith("Relabeled ") || line.contains(" from (null) to ")));
    assertTrue(lines.get(lines.size() - 1).matches("37 entries visited, 36 relabeled, 1 left alone .* 0 failed, in \\d+ ms"),
        lines.get(lines.size() - 1));
    String tree = lines.get(1).replaceFirst("^Sample tree: +", "").replaceFirst(" \\(labelled.*", "");
    assertFalse(Files.exists(Path.of(tree)), "the temporary tree must be removed: " + tree);
  }
}
