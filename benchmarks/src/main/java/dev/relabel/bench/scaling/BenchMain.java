package dev.relabel.bench.scaling;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/relabel-bench}: the end-to-end benchmarks' command line. */
@Command(name = "relabel-bench", mixinStandardHelpOptions = true,
    description = "End-to-end benchmarks of relabel against the reference tools.",
    subcommands = {ScalingCommand.class, PlotCommand.class, ChconBench.class, ShortRunsBench.class})
public final class BenchMain implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is needed: scaling, plot, chcon or short");
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new BenchMain()).execute(args));
  }
}
