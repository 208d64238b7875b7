package dev.relabel.cli;

public final class RelabelCommand {
  public static void main(String[] args) {}
}
