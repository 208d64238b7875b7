package dev.relabel.bench.scaling;

/**
 * What one child process cost: wall seconds (measured by the harness around the process), user
 * and system CPU seconds and peak resident set size of the child (from its rusage); a figure the
 * machine could not give is NaN (seconds) or -1 (RSS).
 */
public record Measurement(double wallSeconds, double userSeconds, double sysSeconds, long peakRssKb) {}
