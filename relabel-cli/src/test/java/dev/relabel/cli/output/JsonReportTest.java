package dev.relabel.cli.output;

import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.Cli;
import dev.relabel.cli.JsonReports;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.InputFormat;
import dev.relabel.fixtures.AttrTrees;
import dev.relabel.policy.PathBytes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code --json} of each verb, run in-process: every report validates against the committed
 * {@code report.schema.json} (networknt's JSON Schema 2020-12 validator), and says what the run
 * did: changes, errors with their paths (base64 for bytes that are not UTF-8), counts, status.
 */
class JsonReportTest {
  private static final String ETC = "system_u:object_r:etc_t:s0";

  @TempDir
  Path dir;
  private Path root;
  private Path spec;

  @BeforeEach
  void tree() throws Exception {
    spec = Files.writeString(dir.resolve("file_contexts"), "/srv(/.*)?\t" + ETC + "\n/srv/none\t<<none>>\n");
    root = dir.resolve("root");
    Files.createDirectories(root.resolve("srv/b"));
    Files.writeString(root.resolve("srv/a"), "");
    Files.writeString(root.resolve("srv/b/c"), "");
    Files.writeString(root.resolve("srv/none"), "");
    AttrTrees.touchRaw(root.resolve("srv"), "\u00ff\u00fe", dir);
  }

  /** The one JSON document on standard output, after checking it against the schema. */
  private static JsonNode report(Cli.Result r) {
    return JsonReports.of(r);
  }

  private static List<String> texts(JsonNode array, String field) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.get(field).asString()));
    return texts;
  }

  @Test
  void setfilesWithVerboseListsEveryChangeAndCountsThem() {
    Cli.Result r = Cli.run("setfiles", "-n", "-v", "--json", "-r", root.toString(), spec.toString(), root + "/srv");
    JsonNode report = report(r);
    assertEquals(0, r.status(), r::toString);
    assertEquals("relabel-report/1", report.get("format").asString());
    assertEquals("relabel", report.get("kind").asString());
    assertEquals("setfiles", report.get("command").asString());
    assertTrue(report.get("dryRun").asBoolean());
    assertTrue(report.get("changesListed").asBoolean());
    assertEquals(0, report.get("exitStatus").asInt());
    JsonNode counts = report.get("counts");
    assertEquals(6, counts.get("visited").asLong(), report::toString);
    assertEquals(5, counts.get("relabeled").asLong(), report::toString);
    assertEquals(1, counts.get("unmatched").asLong(), report::toString);
    assertEquals(0, counts.get("errors").asLong(), report::toString);
    JsonNode changes = report.get("changes");
    assertEquals(5, changes.size(), report::toString);
    for (JsonNode change : changes) {
      assertTrue(change.get("from").isNull(), change::toString);
      assertEquals(ETC, change.get("to").asString());
      assertFalse(change.get("applied").asBoolean());
    }
    // The name that is not UTF-8: a display form, and its exact bytes in base64.
    JsonNode raw = null;
    for (JsonNode change : changes) {
      if (change.has("pathBase64")) {
        raw = change;
      }
    }
    assertTrue(raw != null, report::toString);
    assertEquals(root + "/srv/\\xff\\xfe", raw.get("path").asString());
    byte[] expected = (root + "/srv/\u00ff\u00fe").getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(new String(expected, StandardCharsets.ISO_8859_1),
        new String(Base64.getDecoder().decode(raw.get("pathBase64").asString()), StandardCharsets.ISO_8859_1));
    // Every other path is plain UTF-8 text.
    assertTrue(texts(changes, "path").contains(root + "/srv/b/c"), report::toString);
    // The -v lines are still written, on standard error: standard output holds the report alone.
    assertTrue(r.err().contains("Would relabel " + root + "/srv/a from (null) to " + ETC + "\n"), r::toString);
  }

  @Test
  void restoreconAndTheFixfilesVerbsReportToo() {
    Cli.Result restorecon = Cli.run("restorecon", "-R", "-n", "--json", root + "/srv");
    JsonNode report = report(restorecon);
    assertEquals("restorecon", report.get("command").asString());
    assertEquals(restorecon.status(), report.get("exitStatus").asInt(), restorecon::toString);
    assertEquals(6, report.get("counts").get("visited").asLong(), report::toString);

    Cli.Result check = Cli.run("check", "-v", "--json", "--root", root.toString());
    JsonNode checked = report(check);
    assertEquals("check", checked.get("command").asString());
    assertTrue(checked.get("dryRun").asBoolean());
    assertTrue(checked.get("counts").get("visited").asLong() >= 6, checked::toString);
    assertEquals(checked.get("counts").get("relabeled").asLong(), checked.get("changes").size(), checked::toString);
  }

  @Test
  void aPlanReportsItsAggregate() {
    Cli.Result plan = Cli.run("plan", "--json", "-f", spec.toString(), "-r", root.toString(), root + "/srv");
    JsonNode report = report(plan);
    assertEquals(ExitStatus.PLAN_CHANGES, plan.status(), plan::toString);
    assertEquals("plan", report.get("command").asString());
    assertEquals(ExitStatus.PLAN_CHANGES, report.get("exitStatus").asInt());
    assertEquals(5, report.get("summary").get("byTransition").get(0).get("count").asLong(), report::toString);
    assertTrue(plan.err().contains("5 of 6 entries would be relabelled"), plan::toString);
  }

  /**
   * A summary's directory is a path, written as a path is: a name that is not UTF-8 gets a display
   * form and its bytes; the text summary prints the name's own bytes.
   */
  @Test
  void aSummarysDirectoryIsWrittenAsAPathIs() throws Exception {
    AttrTrees.check(List.of("sh", "-c", "cd \"$1\" && mkdir \"$(printf 'd\\351')\" && touch \"$(printf 'd\\351')/x\"",
        "sh", root.resolve("srv").toString()), dir);
    Cli.Result plan = Cli.run("plan", "--json", "-f", spec.toString(), "-r", root.toString(), root + "/srv");
    JsonNode report = report(plan);
    JsonNode named = null;
    for (JsonNode directory : report.get("summary").get("byDirectory")) {
      named = directory.has("keyBase64") ? directory : named;
    }
    assertEquals(root + "/srv/d\\xe9", named.get("key").asString(), report::toString);
    assertEquals(root + "/srv/d\u00e9", new String(Base64.getDecoder().decode(named.get("keyBase64").asString()),
        StandardCharsets.ISO_8859_1));
    // as main runs it: standard output in the locale's charset made lossless
    Cli.Result text = Cli.run(new byte[0], PathBytes.charset(), "plan", "-f", spec.toString(),
        "-r", root.toString(), root + "/srv");
    assertTrue(text.outLatin1().contains(" " + root + "/srv/d\u00e9\n"), text::toString);
  }

  /**
   * A message or warning naming a path that is not UTF-8 holds it in the display form: JSON text is
   * Unicode, and the chars relabel holds such bytes in (lone surrogates) are not.
   */
  @Test
  void messagesNamingBytesThatAreNotUtf8StayUnicode() {
    Cli.Result r = Cli.run(new byte[0], PathBytes.charset(), "chcon", "--json", "-t", "etc_t",
        root + "/srv/missing-\uDCFF");
    JsonNode report = report(r);
    assertEquals("cannot access " + root + "/srv/missing-\\xff: ENOENT (No such file or directory)",
        report.get("errors").get(0).get("message").asString(), report::toString);
    String raw = r.outLatin1().toLowerCase(java.util.Locale.ROOT);
    assertFalse(raw.contains("\\ud"), "a surrogate escaped into the JSON text: " + raw);
  }

  @Test
  void withoutVerboseChangesAreCountedNotListed() {
    Cli.Result r = Cli.run("setfiles", "-n", "--json", "-r", root.toString(), spec.toString(), root + "/srv");
    JsonNode report = report(r);
    assertFalse(report.get("changesListed").asBoolean());
    assertEquals(0, report.get("changes").size());
    assertEquals(5, report.get("counts").get("relabeled").asLong());
    // The aggregate holds every change all the same.
    JsonNode transitions = report.get("summary").get("byTransition");
    assertEquals(1, transitions.size(), report::toString);
    assertEquals("(unlabeled) -> etc_t", transitions.get(0).get("key").asString());
    assertEquals(5, transitions.get(0).get("count").asLong());
    long inDirectories = 0;
    for (JsonNode directory : report.get("summary").get("byDirectory")) {
      inDirectories += directory.get("count").asLong();
    }
    assertEquals(5, inDirectories, report::toString);
    assertEquals("", r.err());
  }

  @Test
  void errorsCarryTheirPathErrnoAndTheLineSetfilesPrints() {
    Cli.Result r = Cli.run("setfiles", "-n", "--json", "-r", root.toString(), spec.toString(), root + "/srv/missing",
        root + "/srv/a");
    JsonNode report = report(r);
    assertEquals(255, r.status(), r::toString);
    assertEquals(255, report.get("exitStatus").asInt());
    JsonNode errors = report.get("errors");
    assertEquals(1, errors.size(), report::toString);
    assertEquals(root + "/srv/missing", errors.get(0).get("path").asString());
    assertEquals(2, errors.get(0).get("errno").asInt());
    assertEquals(1, report.get("counts").get("errors").asLong());
    String line = "relabel: lstat(" + root + "/srv/missing) failed: No such file or directory";
    assertEquals(List.of(line), texts(report.get("messages"), "text"));
    assertEquals(line + "\n", r.err());
    // The other PATH was still labelled.
    assertEquals(1, report.get("counts").get("relabeled").asLong(), report::toString);
  }

  @Test
  void directoriesSkippedByTheirDigestAreCounted() {
    String[] args = {"setfiles", "-D", "--json", "-r", root.toString(), spec.toString(), root + "/srv"};
    JsonNode first = report(Cli.run(args));
    assertEquals(0, first.get("exitStatus").asInt(), first::toString);
    assertFalse(first.get("counts").has("skippedUnchanged"), first::toString);
    Cli.Result again = Cli.run(args);
    JsonNode second = report(again);
    assertEquals(0, again.status(), again::toString);
    assertEquals(1, second.get("counts").get("skippedUnchanged").asLong(), second::toString);
    assertEquals(0, second.get("counts").get("relabeled").asLong(), second::toString);
  }

  @Test
  void lookupAnswersEachRequest() {
    byte[] stdin = Cli.latin1("/srv/a\n/srv/none\n/elsewhere\nbogus\t/srv/a\n/srv/\u00ff\n");
    Cli.Result r = Cli.runWithStdin(stdin, "lookup", "--json", "--stdin", "-f", spec.toString());
    JsonNode report = report(r);
    assertEquals(1, r.status(), r::toString);
    assertEquals("lookup", report.get("kind").asString());
    assertEquals(List.of("/srv/a", "/srv/none", "/elsewhere", "/srv/a", "/srv/\\xff"), texts(report.get("results"), "path"));
    assertEquals(List.of("context", "none", "nomatch", "error", "context"), texts(report.get("results"), "answer"));
    assertEquals(ETC, report.get("results").get(0).get("context").asString());
    assertEquals("L3Nydi//", report.get("results").get(4).get("pathBase64").asString());
    JsonNode counts = report.get("counts");
    assertEquals(List.of(2L, 1L, 1L, 1L), List.of(counts.get("context").asLong(), counts.get("none").asLong(),
        counts.get("nomatch").asLong(), counts.get("error").asLong()));
    assertEquals(1, report.get("errors").size());
    assertTrue(report.get("errors").get(0).get("message").asString().startsWith("unknown file type 'bogus'"), report::toString);
  }

  @Test
  void demoReportsItsChanges() {
    Cli.Result r = Cli.run("demo", "--json");
    JsonNode report = report(r);
    assertEquals(0, r.status(), r::toString);
    assertEquals("demo", report.get("command").asString());
    assertTrue(report.get("changes").size() > 10, report::toString);
    assertEquals(report.get("counts").get("relabeled").asLong(), report.get("changes").size());
    assertTrue(r.err().contains("Sample policy: "), r::toString);
  }

  @Test
  void aUsageErrorIsReportedToo() {
    Cli.Result r = Cli.run("setfiles", "--json", spec.toString());
    JsonNode report = report(r);
    assertEquals(255, r.status());
    assertEquals(255, report.get("exitStatus").asInt());
    assertEquals("setfiles", report.get("command").asString());
    assertEquals(List.of("Missing required parameter: 'PATH'"), texts(report.get("errors"), "message"));
    assertEquals(List.of("relabel: Missing required parameter: 'PATH' (see 'relabel setfiles --help')"), r.errLines());
    Cli.Result lookup = Cli.run("lookup", "--json");
    JsonNode lookupReport = report(lookup);
    assertEquals(1, lookup.status());
    assertEquals("lookup", lookupReport.get("kind").asString());
    assertEquals(List.of("missing PATH (or --stdin)"), texts(lookupReport.get("errors"), "message"));
  }

  @Test
  void anUnusablePolicyListsEachProblem() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad_contexts"), "/a\tsystem_u:object_r:etc_t:s0\n/b(\t" + ETC + "\n/c\n");
    Cli.Result r = Cli.run("setfiles", "-n", "--json", "-r", root.toString(), bad.toString(), root + "/srv");
    JsonNode report = report(r);
    assertEquals(1, r.status(), r::toString);
    assertEquals(1, report.get("exitStatus").asInt());
    List<String> messages = texts(report.get("errors"), "message");
    assertEquals(2, messages.size(), report::toString);
    for (String message : messages) {
      assertTrue(message.startsWith(bad + ":"), message);
      assertTrue(r.err().contains("relabel: " + message + "\n"), r::toString);
    }
    assertEquals(0, report.get("counts").get("visited").asLong());
  }

  /**
   * walkSeconds: the walk's own duration, in every report of a verb that walked; at least 0 and no
   * more than the whole run as this test measures it around the in-process call (which includes
   * the policy's load and the report), and than the report's own durationMs (to its millisecond).
   */
  @Test
  void everyWalkReportsItsOwnDuration() {
    List<List<String>> runs = List.of(
        List.of("setfiles", "-n", "--json", "-r", root.toString(), spec.toString(), root + "/srv"),
        List.of("setfiles", "-n", "--json", "-T", "2", "-r", root.toString(), spec.toString(), root + "/srv", root + "/srv/b"),
        List.of("restorecon", "-R", "-n", "--json", root + "/srv"),
        List.of("check", "--json", "--root", root.toString()),
        List.of("plan", "--json", "-f", spec.toString(), "-r", root.toString(), root + "/srv"),
        List.of("demo", "--json"));
    for (List<String> args : runs) {
      long start = System.nanoTime();
      Cli.Result r = Cli.run(args.toArray(String[]::new));
      double measured = (System.nanoTime() - start) / 1e9;
      JsonNode report = report(r);
      assertTrue(report.has("walkSeconds"), () -> args + ": " + report);
      assertTrue(report.get("walkSeconds").isNumber(), () -> args + ": " + report);
      double walk = report.get("walkSeconds").asDouble();
      assertTrue(walk >= 0, () -> args + ": " + report);
      assertTrue(walk <= measured, () -> args + ": walk " + walk + " s, the whole run " + measured + " s");
      assertTrue(walk * 1000 < report.get("durationMs").asLong() + 1, () -> args + ": " + report);
    }
  }

  /** A run that stops before it walks has no walk to time: walkSeconds is absent, not 0. */
  @Test
  void noWalkNoWalkSeconds() {
    Path bad = dir.resolve("missing_contexts");
    for (Cli.Result r : List.of(Cli.run("setfiles", "--json", spec.toString()),
        Cli.run("setfiles", "-n", "--json", "-r", root.toString(), bad.toString(), root + "/srv"),
        Cli.runWithStdin(Cli.latin1("/srv/a\n"), "lookup", "--json", "--stdin", "-f", spec.toString()))) {
      JsonNode report = report(r);
      assertFalse(report.has("walkSeconds"), report::toString);
    }
    ObjectNode negative = (ObjectNode) report(
        Cli.run("setfiles", "-n", "--json", "-r", root.toString(), spec.toString(), root + "/srv"));
    negative.put("walkSeconds", -0.5);
    assertFalse(JsonReports.schema().validate(negative.toString(), InputFormat.JSON).isEmpty(), "the schema refuses a negative walk");
  }

  /** The schema is no formality: it refuses a report without its status, or with a field it does not know. */
  @Test
  void theSchemaRefusesWhatItDoesNotDescribe() {
    Cli.Result r = Cli.run("setfiles", "-n", "--json", "-r", root.toString(), spec.toString(), root + "/srv");
    ObjectNode report = (ObjectNode) report(r);
    ObjectNode noStatus = report.deepCopy();
    noStatus.remove("exitStatus");
    assertFalse(JsonReports.schema().validate(noStatus.toString(), InputFormat.JSON).isEmpty());
    ObjectNode extra = report.deepCopy();
    extra.put("surprise", 1);
    assertFalse(JsonReports.schema().validate(extra.toString(), InputFormat.JSON).isEmpty());
    ObjectNode noCounts = report.deepCopy();
    ((ObjectNode) noCounts.get("counts")).remove("visited");
    assertFalse(JsonReports.schema().validate(noCounts.toString(), InputFormat.JSON).isEmpty());
  }
}
