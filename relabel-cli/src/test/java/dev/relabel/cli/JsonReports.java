package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.relabel.cli.output.JsonReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The {@code --json} report of an in-process run, checked: one line on standard output, valid against its schema. */
public final class JsonReports {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final Schema SCHEMA = load();

  private JsonReports() {}

  private static Schema load() {
    try (InputStream in = JsonReport.class.getResourceAsStream(JsonReport.SCHEMA_RESOURCE)) {
      assertTrue(in != null, "the schema is not on the class path at " + JsonReport.SCHEMA_RESOURCE);
      return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** report.schema.json, loaded once. */
  public static Schema schema() {
    return SCHEMA;
  }

  /** The one JSON document on {@code r}'s standard output, after checking it against the schema. */
  public static JsonNode of(Cli.Result r) {
    String out = new String(r.out(), StandardCharsets.UTF_8);
    assertTrue(out.endsWith("}\n") && out.indexOf('\n') == out.length() - 1, () -> "not one JSON line:\n" + r);
    List<Error> errors = SCHEMA.validate(out, InputFormat.JSON);
    assertEquals(List.of(), errors.stream().map(Error::toString).toList(), () -> "invalid report:\n" + out);
    return MAPPER.readTree(out);
  }
}
