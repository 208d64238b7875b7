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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import javax.imageio.ImageIO;

/**
 * scaling.png: each tool's speed-up (its median wall at the fewest threads over its median wall at
 * N) against N, one line per (scope, tool, mode), and the ideal line (speed-up N / fewest) dashed
 * in grey. Drawn with Java2D, headless; no plotting library.
 */
public final class ScalingPlot {
  public static final int WIDTH = 960;
  public static final int HEIGHT = 640;
  private static final Color[] COLORS = {
    new Color(0xd62728), new Color(0x1f77b4), new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e),
    new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf)
  };
  private static final int LEFT = 80;
  private static final int RIGHT = 300;
  private static final int TOP = 50;
  private static final int BOTTOM = 70;

  private ScalingPlot() {}

  /** One line of the plot: its label and its points (threads → speed-up). */
  record Series(String label, Color color, boolean dashed, Map<Integer, Double> points) {}

  public static void write(Path file, String title, Map<Stats.Key, Stats.Median> medians) throws IOException {
    System.setProperty("java.awt.headless", "true");
    BufferedImage image = draw(title, medians);
    if (!ImageIO.write(image, "png", file.toFile())) {
      throw new IOException("no PNG writer in this JVM");
    }
  }

  static BufferedImage draw(String title, Map<Stats.Key, Stats.Median> medians) {
    TreeSet<Integer> threads = new TreeSet<>();
    medians.keySet().forEach(k -> threads.add(k.threads()));
    int fewest = threads.first();
    int most = Math.max(threads.last(), fewest + 1);
    List<Series> series = series(medians, fewest);
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
    int plotWidth = WIDTH - LEFT - RIGHT;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    Axes axes = new Axes(fewest, most, 0, top, plotWidth, plotHeight);

    // Grid and ticks.
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    for (int t = fewest; t <= most; t++) {
      if (most - fewest > 16 && t % 4 != 0 && t != fewest) {
        continue;
      }
      int x = axes.x(t);
      g.setColor(new Color(0xeeeeee));
      g.drawLine(x, TOP, x, TOP + plotHeight);
      g.setColor(Color.BLACK);
      g.drawString(Integer.toString(t), x - 4, TOP + plotHeight + 18);
    }
    double step = top <= 4 ? 0.5 : top <= 10 ? 1 : Math.ceil(top / 10);
    for (double y = 0; y <= top + 1e-9; y += step) {
      int py = axes.y(y);
      g.setColor(new Color(0xeeeeee));
      g.drawLine(LEFT, py, LEFT + plotWidth, py);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.1f", y), LEFT - 36, py + 4);
    }
    g.setColor(Color.BLACK);
    g.drawRect(LEFT, TOP, plotWidth, plotHeight);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(title, LEFT, TOP - 18);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    g.drawString("threads (-T)", LEFT + plotWidth / 2 - 35, HEIGHT - 25);
    Graphics2D rotated = (Graphics2D) g.create();
    rotated.rotate(-Math.PI / 2);
    rotated.drawString("speed-up over -T " + fewest + " (median wall)", -(TOP + plotHeight / 2 + 90), 25);
    rotated.dispose();

    // The ideal line.
    Stroke dashed = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f);
    g.setColor(Color.GRAY);
    g.setStroke(dashed);
    g.drawLine(axes.x(fewest), axes.y(1), axes.x(most), axes.y((double) most / fewest));

    int legendY = TOP + 10;
    legend(g, "ideal (N / " + fewest + ")", Color.GRAY, dashed, legendY);
    for (Series s : series) {
      Stroke stroke = s.dashed()
          ? new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f, new float[] {3f, 5f}, 0f)
          : new BasicStroke(2.5f);
      g.setColor(s.color());
      g.setStroke(stroke);
      int[] previous = null;
      for (Map.Entry<Integer, Double> point : s.points().entrySet()) {
        int[] p = {axes.x(point.getKey()), axes.y(point.getValue())};
        if (previous != null) {
          g.drawLine(previous[0], previous[1], p[0], p[1]);
        }
        g.fillOval(p[0] - 4, p[1] - 4, 8, 8);
        previous = p;
      }
      legendY += 22;
      legend(g, s.label(), s.color(), stroke, legendY);
    }
    g.dispose();
    return image;
  }

  private static void legend(Graphics2D g, String label, Color color, Stroke stroke, int y) {
    int x = WIDTH - RIGHT + 20;
    g.setColor(color);
    g.setStroke(stroke);
    g.drawLine(x, y, x + 34, y);
    g.setColor(Color.BLACK);
    g.drawString(label, x + 42, y + 4);
  }

  /** Speed-up lines: colour by tool, dotted for check runs, solid for relabel runs. */
  static List<Series> series(Map<Stats.Key, Stats.Median> medians, int fewest) {
    Map<String, Color> colors = new LinkedHashMap<>();
    Map<String, Series> byLabel = new LinkedHashMap<>();
    boolean twoScopes = medians.keySet().stream().map(Stats.Key::scope).distinct().count() > 1;
    medians.forEach((key, median) -> {
      Stats.Median base = medians.get(new Stats.Key(key.scope(), key.tool(), key.mode(), fewest));
      if (base == null) {
        return;
      }
      String colorKey = key.tool() + (twoScopes ? "/" + key.scope().text() : "");
      Color color = colors.computeIfAbsent(colorKey, k -> COLORS[colors.size() % COLORS.length]);
      String label = key.tool() + ", " + key.mode().text() + (twoScopes ? " (" + key.scope().text() + ")" : "");
      byLabel.computeIfAbsent(label, l -> new Series(l, color, key.mode() == Trial.Mode.CHECK, new java.util.TreeMap<>()))
          .points().put(key.threads(), base.wallSeconds() / median.wallSeconds());
    });
    return new ArrayList<>(byLabel.values());
  }

  private record Axes(int minX, int maxX, double minY, double maxY, int width, int height) {
    int x(double v) {
      return LEFT + (int) Math.round((v - minX) / (maxX - minX) * width);
    }

    int y(double v) {
      return TOP + height - (int) Math.round((v - minY) / (maxY - minY) * height);
    }
  }
}
