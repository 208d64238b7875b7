package dev.relabel.cli.julbridge;

/**
 * java.util.logging's standard levels, by the same names and values, and the {@link System.Logger}
 * level each is printed at.
 */
public final class Level {
  public static final Level SEVERE = new Level("SEVERE", 1000, System.Logger.Level.ERROR);
  public static final Level WARNING = new Level("WARNING", 900, System.Logger.Level.WARNING);
  public static final Level INFO = new Level("INFO", 800, System.Logger.Level.INFO);
  public static final Level CONFIG = new Level("CONFIG", 700, System.Logger.Level.DEBUG);
  public static final Level FINE = new Level("FINE", 500, System.Logger.Level.DEBUG);
  public static final Level FINER = new Level("FINER", 400, System.Logger.Level.TRACE);
  public static final Level FINEST = new Level("FINEST", 300, System.Logger.Level.TRACE);

  private final String name;
  private final int value;
  private final System.Logger.Level systemLevel;

  private Level(String name, int value, System.Logger.Level systemLevel) {
    this.name = name;
    this.value = value;
    this.systemLevel = systemLevel;
  }

  public String getName() {
    return name;
  }

  public int intValue() {
    return value;
  }

  /** The level of {@link System.Logger} a record at this level is logged at. */
  System.Logger.Level systemLevel() {
    return systemLevel;
  }

  @Override
  public String toString() {
    return name;
  }
}
