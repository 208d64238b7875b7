package dev.relabel.cli;

import dev.relabel.cli.common.Io;

/**
 * {@code relabel}'s entry (the jar's {@code Main-Class}): a class without picocli, so that a run the
 * {@link QuickPath} takes loads none of it ({@link RelabelCommand}, whose methods name picocli's
 * types, has the JVM load some of them as soon as it is linked).
 */
public final class Main {
  private Main() {}

  /** Runs {@code args} on the quick path when it takes them, on picocli's otherwise. */
  public static void main(String[] args) {
    Io io = Io.system();
    Integer status = QuickPath.run(args, io);
    System.exit(status != null ? status : RelabelCommand.execute(io, args));
  }
}
