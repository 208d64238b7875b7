package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a relabel start goes, read off the JVM's class-loading log of one run
 * ({@code RELABEL_JAVA_OPTS=-Xlog:class+load:file=F:uptime}): how many classes it loaded, how many
 * of them came from the class data sharing archive, and when (JVM uptime) the first class of each
 * stage was loaded. A class is loaded when the code first needs it, so each milestone is the
 * moment that stage began; the log's own writing slows the run a little, which is why the
 * medians are measured without it.
 */
record StartTimeline(int classes, int fromArchive, Map<String, Double> milestones, double lastClassMs) {
  /** Each stage and the class (a name, or a prefix ending in '.') whose first load marks it. */
  static final Map<String, String> STAGES = stages();

  private static Map<String, String> stages() {
    Map<String, String> stages = new LinkedHashMap<>();
    stages.put("relabel's main", "dev.relabel.cli.");
    stages.put("picocli", "picocli.");
    stages.put("JNA", "com.sun.jna.");
    // Classes only the stage's own code loads: a verb's fields and signatures name LabelMatcher,
    // Label and PolicyLoader, which reflection over them loads early.
    stages.put("policy", "dev.relabel.policy.PolicyCache");
    stages.put("matcher", "dev.relabel.match.PrefixIndex");
    stages.put("first label", "dev.relabel.match.RankMerge");
    return stages;
  }

  private static final Pattern LINE = Pattern.compile("^\\[(\\d+\\.\\d+)s\\]\\[[^]]*\\] (\\S+) source: (.*)$");

  /** Runs {@code command} once (a relabel launcher's) with the class-loading log, and reads it. */
  static StartTimeline of(List<String> command, Path scratch) throws IOException, InterruptedException {
    Path log = Files.createTempFile(scratch, "class-load", ".log");
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    builder.environment().put("RELABEL_JAVA_OPTS", "-Xlog:class+load=info:file=" + log + ":uptime,tags");
    int status = builder.start().waitFor();
    if (status != 0) {
      throw new IOException(String.join(" ", command) + " exited " + status + " with the class-loading log");
    }
    return parse(Files.readAllLines(log, StandardCharsets.ISO_8859_1));
  }

  static StartTimeline parse(List<String> lines) {
    int classes = 0;
    int fromArchive = 0;
    double last = 0;
    Map<String, Double> milestones = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        continue;
      }
      classes++;
      if (m.group(3).equals("shared objects file") || m.group(3).startsWith("shared objects file ")) {
        fromArchive++;
      }
      double ms = Double.parseDouble(m.group(1)) * 1000;
      last = ms;
      String name = m.group(2);
      for (Map.Entry<String, String> stage : STAGES.entrySet()) {
        String marker = stage.getValue();
        boolean hit = marker.endsWith(".") ? name.startsWith(marker) : name.equals(marker);
        if (hit) {
          milestones.putIfAbsent(stage.getKey(), ms);
        }
      }
    }
    return new StartTimeline(classes, fromArchive, milestones, last);
  }

  /** One table row: classes, archived, then each stage's uptime in ms ("–" when never reached). */
  String row(String tool) {
    StringBuilder row = new StringBuilder("| ").append(tool).append(" | ").append(classes).append(" | ")
        .append(classes - fromArchive).append(" |");
    for (String stage : STAGES.keySet()) {
      Double at = milestones.get(stage);
      row.append(' ').append(at == null ? "–" : String.format(Locale.ROOT, "%.0f", at)).append(" |");
    }
    return row.append(String.format(Locale.ROOT, " %.0f |", lastClassMs)).toString();
  }

  static String header() {
    StringBuilder header = new StringBuilder("| command | classes | not from the archive |");
    StringBuilder rule = new StringBuilder("| --- | --- | --- |");
    for (String stage : STAGES.keySet()) {
      header.append(' ').append(stage).append(" |");
      rule.append(" --- |");
    }
    return header.append(" last class |\n").append(rule).append(" --- |\n").toString();
  }
}
