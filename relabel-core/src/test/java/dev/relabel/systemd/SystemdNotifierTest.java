package dev.relabel.systemd;

import dev.relabel.report.FilesystemProgress;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.NotifySocket;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.report.RelabelListener;
import dev.relabel.walk.RelabelOptions;
import dev.relabel.walk.Relabeler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notification protocol against a datagram socket bound as systemd binds one. */
class SystemdNotifierTest {
  @TempDir Path dir;

  @Test
  void notificationsArriveAsDatagramsOfAssignments() {
    try (NotifySocket socket = new NotifySocket(dir.resolve("notify"))) {
      SystemdNotifier notifier = SystemdNotifier.of(socket.path).orElseThrow();
      notifier.ready();
      notifier.status("Relabeling /home:\n50%");
      notifier.progress("Relabeling /", Duration.ofSeconds(30));
      notifier.stopping();
      assertEquals(List.of("READY=1", "STATUS=Relabeling /home: 50%",
          "STATUS=Relabeling /\nEXTEND_TIMEOUT_USEC=30000000", "STOPPING=1"), socket.drain());
      assertEquals(0, notifier.failures());
    }
  }

  @Test
  void withoutASocketNothingIsSentAndNothingFails() {
    assertTrue(SystemdNotifier.of(null).isEmpty());
    assertTrue(SystemdNotifier.of("").isEmpty());
    SystemdNotifier nobody = SystemdNotifier.of(dir.resolve("absent").toString()).orElseThrow();
    nobody.ready();
    assertEquals(1, nobody.failures());
  }

  @Test
  void aRunUnderSystemdReportsProgressAndExtendsItsTimeout() throws Exception {
    Path tree = Files.createDirectory(dir.resolve("tree"));
    for (int d = 0; d < 40; d++) {
      Path sub = Files.createDirectory(tree.resolve("d" + d));
      for (int f = 0; f < 200; f++) {
        Files.writeString(sub.resolve("f" + f), "");
      }
    }
    Path policy = dir.resolve("file_contexts");
    Files.writeString(policy, "/.* system_u:object_r:default_t:s0\n");
    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.lenient().load(policy));
    try (NotifySocket socket = new NotifySocket(dir.resolve("notify"))) {
      SystemdNotifier notifier = SystemdNotifier.of(socket.path).orElseThrow();
      try (FilesystemProgress progress = new FilesystemProgress(line -> { }, Optional.of(notifier), Duration.ofMillis(1))) {
        progress.expect("/tree", OptionalLong.of(8_041));
        Relabeler.onDisk(matcher, RelabelOptions.defaults().withAlternateRoot(tree), progress).run(List.of(tree));
      }
      List<String> messages = socket.drain();
      assertTrue(!messages.isEmpty(), "no notification arrived");
      for (String message : messages) {
        assertTrue(message.matches("STATUS=Relabeling /tree: \\d+% \\(\\S+ of 8\\.0k entries(, ETA \\S+)?\\)\n"
            + "EXTEND_TIMEOUT_USEC=3000"), message);
      }
      // The last one (sent on close) counts every tick the workers gave: 7 of 1,024 entries.
      assertTrue(messages.get(messages.size() - 1).startsWith("STATUS=Relabeling /tree: 89% (7.2k of 8.0k"),
          messages.toString());
    }
  }

  @Test
  void statusLinesSayHowFarAndHowLong() {
    assertEquals("Relabeling /home: 41% (1.2M of 2.9M entries, ETA 3m10s)",
        FilesystemProgress.statusLine("/home", 1_200_000, OptionalLong.of(2_900_000), 1_200_000 / 8_947.4));
    assertEquals("Relabeling /: 12.3k entries (950/s)",
        FilesystemProgress.statusLine("/", 12_300, OptionalLong.empty(), 12_300 / 950.0));
    assertEquals("2h05m", FilesystemProgress.duration(7_500));
    assertEquals("45s", FilesystemProgress.duration(45));
  }
}
