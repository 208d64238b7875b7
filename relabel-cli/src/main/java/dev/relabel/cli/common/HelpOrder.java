package dev.relabel.cli.common;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A verb's options in the order its help lists them, whatever class declares them. With
 * {@code sortOptions = false} picocli lists options as they were declared, those of a mixin
 * together where the mixin is; two verbs that share a mixin but interleave its options with their
 * own (setfiles and restorecon) name their order instead, from a {@code @Spec} setter, which
 * picocli calls once the options of every field (mixins included) are in the model, before it
 * adds {@code -h} and {@code -V}:
 *
 * <pre>{@code
 * @Spec
 * void spec(CommandSpec spec) {
 *   this.spec = HelpOrder.apply(spec, "-F", "-n", ...);
 * }
 * }</pre>
 *
 * (Not a {@code modelTransformer}: picocli applies those only to the commands a {@code CommandLine}
 * is built with, not to a verb added later, as {@code main} adds the one verb it runs.) Every
 * visible option must be named, by its first name, so that none lands at the end unseen; hidden
 * ones not named follow, in their order.
 */
public final class HelpOrder {
  private HelpOrder() {}

  /** Puts {@code spec}'s options in the order {@code firstNames} gives; returns {@code spec}. */
  public static CommandSpec apply(CommandSpec spec, String... firstNames) {
    List<OptionSpec> options = new ArrayList<>(spec.options());
    List<OptionSpec> ordered = new ArrayList<>();
    for (String name : firstNames) {
      OptionSpec option = options.stream().filter(o -> o.names()[0].equals(name)).findFirst()
          .orElseThrow(() -> new IllegalStateException(spec.name() + " has no option " + name + " to place"));
      options.remove(option);
      ordered.add(option);
    }
    for (OptionSpec rest : options) {
      if (!rest.hidden()) {
        throw new IllegalStateException(spec.name() + ": " + Arrays.toString(rest.names()) + " has no place in its help");
      }
      ordered.add(rest);
    }
    for (OptionSpec option : ordered) {
      spec.remove(option);
    }
    for (OptionSpec option : ordered) {
      spec.addOption(option);
    }
    return spec;
  }
}
