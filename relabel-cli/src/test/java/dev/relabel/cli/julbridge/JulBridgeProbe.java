package dev.relabel.cli.julbridge;

/**
 * Logs through the bridge as JNA and JLine do, in a JVM of its own ({@link JulBridgeIT}): one
 * record at each level, one with a parameter, one with a thrown exception, one as a record.
 */
public final class JulBridgeProbe {
  private JulBridgeProbe() {}

  public static void main(String[] args) {
    Logger logger = Logger.getLogger("probe");
    for (Level level : new Level[] {Level.SEVERE, Level.WARNING, Level.INFO, Level.CONFIG, Level.FINE,
        Level.FINER, Level.FINEST}) {
      logger.log(level, "at " + level + (logger.isLoggable(level) ? ", loggable" : ""));
    }
    logger.log(Level.WARNING, "parameter {0}", "one");
    logger.log(Level.WARNING, "parameters {0} {1}", new Object[] {"one", "two"});
    logger.log(Level.WARNING, "thrown", new IllegalStateException("the cause"));
    LogRecord record = new LogRecord(Level.WARNING, "a record");
    record.setLoggerName("other");
    logger.log(record);
    logger.warning("warning()");
    logger.finest("finest()");
  }
}
