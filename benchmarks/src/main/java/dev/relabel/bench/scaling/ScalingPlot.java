package dev.relabel.bench.scaling;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.imageio.ImageIO;

/**
 * scaling.png: each tool's speed-up (its median wall at the fewest threads over its median wall at
 * N) against N, one panel per scope, one colour per tool, solid for relabel runs and dotted for
 * check runs, with the ideal line (N / fewest) dashed in grey. Drawn with Java2D, headless; no
 * plotting library.
 */
public final class ScalingPlot {
  public static final int WIDTH = 960;
  public static final int HEIGHT = 640;
  private static final Color[] COLORS = {
    new Color(0xd62728), new Color(0x1f77b4), new Color(0x2ca02c), new Color(0xff7f0e), new Color(0x9467bd),
    new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf)
  };
  private static final int LEFT = 70;
  private static final int LEGEND = 190;
  private static final int GAP = 50;
  private static final int TOP = 80;
  private static final int BOTTOM = 70;
  private static final Stroke IDEAL =
      new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f);
  private static final Stroke SOLID = new BasicStroke(2.5f);
  private static final Stroke DOTTED =
      new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f, new float[] {2f, 6f}, 0f);

  private ScalingPlot() {}

  /** One line: a tool's speed-ups in one scope and mode (threads → speed-up). */
  record Series(Trial.Scope scope, String tool, Trial.Mode mode, Map<Integer, Double> points) {}

  public static void write(Path file, String title, Map<Stats.Key, Stats.Median> medians) throws IOException {
    System.setProperty("java.awt.headless", "true");
    if (!ImageIO.write(draw(title, medians), "png", file.toFile())) {
      throw new IOException("no PNG writer in this JVM");
    }
  }

  /**
   * Writes the plot, or says on {@code err} why it could not and returns false: the results it
   * pictures are already written, and a machine whose JDK lacks its font libraries (libharfbuzz,
   * fontconfig: a minimal server's, the device machine of RESULTS.md's eleventh pass) cannot draw
   * text, which used to end a finished run with a stack trace and a failure status.
   */
  static boolean writeOrWarn(Path file, String title, Map<Stats.Key, Stats.Median> medians, java.io.PrintWriter err) {
    try {
      write(file, title, medians);
      return true;
    } catch (IOException | LinkageError | InternalError e) {
      err.println("relabel-bench: " + file.getFileName() + " not written (" + e
          + "); the results are in results.csv and results.md");
      err.flush();
      return false;
    }
  }

  static BufferedImage draw(String title, Map<Stats.Key, Stats.Median> medians) {
    TreeSet<Integer> threads = new TreeSet<>();
    Set<Trial.Scope> scopes = new LinkedHashSet<>();
    Map<String, Color> colors = new LinkedHashMap<>();
    medians.keySet().forEach(k -> {
      threads.add(k.threads());
      scopes.add(k.scope());
    });
    int fewest = threads.first();
    int most = Math.max(threads.last(), fewest + 1);
    List<Series> series = series(medians, fewest);
    // A colour (and a legend entry) for each tool that has a line.
    series.forEach(s -> colors.computeIfAbsent(s.tool(), t -> COLORS[colors.size() % COLORS.length]));
    double top = (double) most / fewest;
    for (Series s : series) {
      for (double v : s.points().values()) {
        top = Math.max(top, v);
      }
    }
    top = Math.ceil(top * 1.1 * 2) / 2;

    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, WIDTH, HEIGHT);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString(title, LEFT, 30);

    int panels = scopes.size();
    int panelWidth = (WIDTH - LEFT - LEGEND - GAP * (panels - 1)) / panels;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    int at = 0;
    for (Trial.Scope scope : scopes) {
      Axes axes = new Axes(LEFT + at * (panelWidth + GAP), fewest, most, top, panelWidth, plotHeight);
      panel(g, axes, scope, at == 0, fewest);
      for (Series s : series) {
        if (s.scope() != scope) {
          continue;
        }
        g.setColor(colors.get(s.tool()));
        g.setStroke(s.mode() == Trial.Mode.CHECK ? DOTTED : SOLID);
        int[] previous = null;
        for (Map.Entry<Integer, Double> point : s.points().entrySet()) {
          int[] p = {axes.x(point.getKey()), axes.y(point.getValue())};
          if (previous != null) {
            g.drawLine(previous[0], previous[1], p[0], p[1]);
          }
          g.fillOval(p[0] - 4, p[1] - 4, 8, 8);
          previous = p;
        }
      }
      at++;
    }

    // One legend for every panel: a colour per tool, a line style per mode.
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    int y = TOP + 10;
    for (Map.Entry<String, Color> tool : colors.entrySet()) {
      legend(g, tool.getKey(), tool.getValue(), SOLID, y);
      y += 22;
    }
    y += 12;
    legend(g, "relabel (-F) runs", Color.DARK_GRAY, SOLID, y);
    legend(g, "check runs", Color.DARK_GRAY, DOTTED, y + 22);
    legend(g, "ideal (N / " + fewest + ")", Color.GRAY, IDEAL, y + 44);
    g.dispose();
    return image;
  }

  private static void panel(Graphics2D g, Axes axes, Trial.Scope scope, boolean first, int fewest) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    for (int t = axes.minX(); t <= axes.maxX(); t++) {
      if (axes.maxX() - axes.minX() > 16 && t % 4 != 0 && t != axes.minX()) {
        continue;
      }
      int x = axes.x(t);
      g.setColor(new Color(0xeeeeee));
      g.setStroke(new BasicStroke(1f));
      g.drawLine(x, TOP, x, TOP + axes.height());
      g.setColor(Color.BLACK);
      g.drawString(Integer.toString(t), x - 4, TOP + axes.height() + 18);
    }
    double step = axes.maxY() <= 4 ? 0.5 : axes.maxY() <= 10 ? 1 : Math.ceil(axes.maxY() / 10);
    for (double v = 0; v <= axes.maxY() + 1e-9; v += step) {
      int py = axes.y(v);
      g.setColor(new Color(0xeeeeee));
      g.drawLine(axes.left(), py, axes.left() + axes.width(), py);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.1f", v), axes.left() - 30, py + 4);
    }
    g.drawRect(axes.left(), TOP, axes.width(), axes.height());
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
    g.drawString(scope == Trial.Scope.ROOT ? "tree labelled as / (setfiles -r)" : "tree at its real path (restorecon)",
        axes.left(), TOP - 12);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    g.drawString("threads (-T)", axes.left() + axes.width() / 2 - 35, HEIGHT - 25);
    if (first) {
      Graphics2D rotated = (Graphics2D) g.create();
      rotated.rotate(-Math.PI / 2);
      rotated.drawString("speed-up over -T " + fewest + " (median wall)", -(TOP + axes.height() / 2 + 90), 22);
      rotated.dispose();
    }
    g.setColor(Color.GRAY);
    g.setStroke(IDEAL);
    g.drawLine(axes.x(axes.minX()), axes.y(1), axes.x(axes.maxX()), axes.y((double) axes.maxX() / fewest));
  }

  private static void legend(Graphics2D g, String label, Color color, Stroke stroke, int y) {
    int x = WIDTH - LEGEND + 15;
    g.setColor(color);
    g.setStroke(stroke);
    g.drawLine(x, y, x + 34, y);
    g.setColor(Color.BLACK);
    g.drawString(label, x + 42, y + 4);
  }

  /**
   * Speed-up lines, one per (scope, tool, mode) that has a run at the fewest threads and at one
   * more -T at least (the floor's line is the speed-up this machine allows a check's system calls).
   */
  static List<Series> series(Map<Stats.Key, Stats.Median> medians, int fewest) {
    Map<List<Object>, Series> byKey = new LinkedHashMap<>();
    medians.forEach((key, median) -> {
      Stats.Median base = medians.get(new Stats.Key(key.scope(), key.tool(), key.mode(), fewest));
      if (base == null) {
        return;
      }
      byKey.computeIfAbsent(List.of(key.scope(), key.tool(), key.mode()),
              k -> new Series(key.scope(), key.tool(), key.mode(), new TreeMap<>()))
          .points().put(key.threads(), base.wallSeconds() / median.wallSeconds());
    });
    return new ArrayList<>(byKey.values().stream().filter(s -> s.points().size() > 1).toList());
  }

  private record Axes(int left, int minX, int maxX, double maxY, int width, int height) {
    int x(double v) {
      return left + (int) Math.round((v - minX) / (maxX - minX) * width);
    }

    int y(double v) {
      return TOP + height - (int) Math.round(v / maxY * height);
    }
  }
}
