package dev.relabel.bench.scaling;

/** One measured run: the trial, the tool's version, the tree's entry count and the cost. */
public record Sample(Trial trial, String version, long entries, Measurement cost) {}
