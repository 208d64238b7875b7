package dev.relabel.bench.scaling;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool under measurement and how to call it.
 *
 * @param name the name in the results ("relabel", "setfiles", "setfiles-3.11", "restorecon", "floor")
 * @param version what it is, as precisely as the harness could tell
 * @param kind which command line it takes
 * @param executable the command that starts it (for relabel: the launcher and its verb; for the
 *     floor: the built check-floor)
 * @param environment extra environment (restorecon's LD_PRELOAD)
 * @param walkTimed relabel: the modes whose runs get {@code --json}, whose report's
 *     {@code walkSeconds} is the walk's own time (empty for every other tool)
 */
public record Tool(String name, String version, Kind kind, List<String> executable, Map<String, String> environment,
    Set<Trial.Mode> walkTimed) {
  public enum Kind {
    RELABEL, SETFILES, RESTORECON,
    /**
     * The syscall floor ({@code benchmarks/floor/check-floor.c}): the system calls of a check (or,
     * with {@code -w}, of a relabel) and nothing else, on {@code -T} threads.
     */
    FLOOR
  }

  /** What the floor writes on every entry in relabel mode: the write is the cost, not the value. */
  public static final String FLOOR_LABEL = "system_u:object_r:etc_t:s0";

  public Tool {
    executable = List.copyOf(executable);
    environment = Map.copyOf(environment);
    walkTimed = kind == Kind.RELABEL ? Set.copyOf(walkTimed) : Set.of();
  }

  /** A tool whose runs report no walk time. */
  public Tool(String name, String version, Kind kind, List<String> executable, Map<String, String> environment) {
    this(name, version, kind, executable, environment, Set.of());
  }

  /** Whether this tool can label the tree in {@code scope} (restorecon has no {@code -r}). */
  public boolean supports(Trial.Scope scope) {
    return kind != Kind.RESTORECON || scope == Trial.Scope.LITERAL;
  }

  /**
   * Whether a run in {@code mode} writes a {@code --json} report on standard output, whose
   * {@code walkSeconds} is the walk's own time.
   */
  public boolean reportsWalk(Trial.Mode mode) {
    return walkTimed.contains(mode);
  }

  /** The command line for one run. */
  public List<String> command(int threads, Trial.Mode mode, Trial.Scope scope, Path tree, Path fileContexts) {
    List<String> command = new ArrayList<>(executable);
    if (kind == Kind.FLOOR) {
      command.addAll(List.of("-T", Integer.toString(threads)));
      if (mode == Trial.Mode.RELABEL) {
        command.addAll(List.of("-w", FLOOR_LABEL));
      }
      command.add(tree.toString());
      return command;
    }
    if (reportsWalk(mode)) {
      command.add("--json");
    }
    if (kind == Kind.RESTORECON) {
      command.addAll(List.of("-R", "-T", Integer.toString(threads)));
      if (mode == Trial.Mode.RELABEL) {
        command.add("-F");
      }
      command.add(tree.toString());
      return command;
    }
    command.addAll(List.of("-T", Integer.toString(threads)));
    if (mode == Trial.Mode.RELABEL) {
      command.add("-F");
    }
    if (scope == Trial.Scope.ROOT) {
      command.addAll(List.of("-r", tree.toString()));
    }
    command.add(fileContexts.toString());
    command.add(tree.toString());
    return command;
  }
}
