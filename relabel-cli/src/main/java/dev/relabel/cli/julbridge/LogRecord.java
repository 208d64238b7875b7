package dev.relabel.cli.julbridge;

/** The parts of a java.util.logging record JLine fills in before it logs one. */
public final class LogRecord {
  private final Level level;
  private final String message;
  private String loggerName;
  private Throwable thrown;

  public LogRecord(Level level, String message) {
    this.level = level;
    this.message = message;
  }

  public Level getLevel() {
    return level;
  }

  public String getMessage() {
    return message;
  }

  public String getLoggerName() {
    return loggerName;
  }

  public void setLoggerName(String loggerName) {
    this.loggerName = loggerName;
  }

  public Throwable getThrown() {
    return thrown;
  }

  public void setThrown(Throwable thrown) {
    this.thrown = thrown;
  }
}
