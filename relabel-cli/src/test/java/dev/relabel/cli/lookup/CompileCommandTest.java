package dev.relabel.cli.lookup;

import static dev.relabel.cli.Cli.latin1;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.cli.Cli;
import dev.relabel.cli.Cli.Result;
import dev.relabel.policy.PolicyCache;
import dev.relabel.policy.PolicyLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code relabel compile}, in-process, and the verbs reading what it wrote. */
class CompileCommandTest {
  private static final String A = "system_u:object_r:a_t:s0";
  private static final String B = "system_u:object_r:b_t:s0";

  @TempDir
  Path dir;

  private Path policy;

  @BeforeEach
  void writePolicy() throws IOException {
    policy = Files.write(dir.resolve("file_contexts"), latin1("/\t\t" + A + "\n/b(/.*)?\t\t" + B + "\n/c/[xy]+\t\t" + B + "\n"));
  }

  @Test
  void compilesAndChecks() throws Exception {
    Result check = Cli.run("compile", "--check", "-f", policy.toString());
    assertEquals(1, check.status());
    assertEquals("relabel: no compiled policy " + dir.resolve("file_contexts.relabel") + "\n", check.err());

    Result compiled = Cli.run("compile", "-v", "-f", policy.toString());
    assertEquals(0, compiled.status(), compiled.err());
    assertEquals("", compiled.err());
    String out = new String(compiled.out(), StandardCharsets.UTF_8);
    assertTrue(out.startsWith("compiled " + policy + " into " + dir.resolve("file_contexts.relabel") + ": 3 specs, 1 expressions, "),
        out);
    assertTrue(Files.isRegularFile(PolicyCache.fileFor(policy)));

    check = Cli.run("compile", "--check", "-f", policy.toString());
    assertEquals(0, check.status(), check.err());
    assertEquals("", check.err());
    assertEquals(0, check.out().length);
  }

  @Test
  void lookupAnswersFromTheCompiledPolicyAsFromTheText() throws Exception {
    String[] lookup = {"lookup", "-f", policy.toString(), "/", "/b/x", "/c/xyx", "/c/z"};
    Result fromText = Cli.run(lookup);
    assertEquals(0, Cli.run("compile", "-f", policy.toString()).status());
    Result fromCompiled = Cli.run(lookup);
    assertEquals(fromText.status(), fromCompiled.status());
    assertArrayEquals(fromText.out(), fromCompiled.out());
    assertEquals(fromText.err(), fromCompiled.err());
  }

  @Test
  void aStaleOneIsReportedByCheckAndNotUsed() throws Exception {
    assertEquals(0, Cli.run("compile", "-f", policy.toString()).status());
    Files.write(dir.resolve("file_contexts.local"), latin1("/b/x\t\t" + A + "\n"));
    Result check = Cli.run("compile", "--check", "-f", policy.toString());
    assertEquals(1, check.status());
    assertEquals("relabel: ignoring compiled policy " + dir.resolve("file_contexts.relabel") + ": stale, "
        + dir.resolve("file_contexts.local") + " was created since it was compiled (run 'relabel compile')\n", check.err());
    // The verbs read the text instead: the new .local line answers.
    Result lookup = Cli.run("lookup", "-f", policy.toString(), "/b/x");
    assertEquals("/b/x\t" + A + "\n", new String(lookup.out(), StandardCharsets.UTF_8));
    assertEquals(PolicyLoader.lenient().ignoringCompiled().load(policy), PolicyLoader.lenient().warningsTo(w -> { }).load(policy));
  }

  @Test
  void aMalformedPolicyIsRefusedAndNothingWritten() throws Exception {
    Files.write(policy, latin1("/\t\t" + A + "\n/x(\t\t" + A + "\n/y\t-q\t" + A + "\n"));
    Result compiled = Cli.run("compile", "-f", policy.toString());
    assertEquals(1, compiled.status());
    assertEquals("relabel: " + policy + ":2: invalid regex /x(: missing closing parenthesis at offset 5\n"
        + "relabel: " + policy + ":3: invalid file type -q (expected one of -- -d -l -c -b -s -p)\n", compiled.err());
    assertFalse(Files.exists(PolicyCache.fileFor(policy)));
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count(), "only file_contexts is there");
    }
  }

  @Test
  void aPolicyUnderRootIsFoundAsTheVerbsFindIt() throws Exception {
    Path root = dir.resolve("root");
    Path fileContexts = root.resolve("etc/selinux/mine/contexts/files/file_contexts");
    Files.createDirectories(fileContexts.getParent());
    Files.copy(policy, fileContexts);
    Files.write(root.resolve("etc/selinux/config"), latin1("SELINUXTYPE=mine\n"));
    Result compiled = Cli.run("compile", "-r", root.toString());
    assertEquals(0, compiled.status(), compiled.err());
    assertTrue(Files.isRegularFile(PolicyCache.fileFor(fileContexts)));
  }
}
