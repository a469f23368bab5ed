/**
 * A command's flags as data: one row per flag, made into commander's Option the same way
 * `Command.option()` makes one (a parser, a default and its help text, choices, conflicts).
 */
import type { Command } from "commander";
import { Option } from "commander";

export interface FlagRow {
  /** As commander spells it: `-f, --follow`, `--since <duration>`. */
  flags: string;
  description: string;
  /** Parses (and checks) the value; a repeatable flag's parser gets the values so far. */
  // biome-ignore lint/suspicious/noExplicitAny: commander's own type for a parser.
  parse?: (value: string, previous: any) => unknown;
  /** The value when the flag is not given, and how the help shows it. */
  default?: { value: unknown; shown?: string };
  choices?: readonly string[];
  /** Flags that cannot be given with this one (their attribute names). */
  conflicts?: string | string[];
}

export function optionOf(row: FlagRow): Option {
  const option = new Option(row.flags, row.description);
  if (row.parse) option.argParser(row.parse);
  if (row.default) option.default(row.default.value, row.default.shown);
  if (row.choices) option.choices(row.choices);
  if (row.conflicts) option.conflicts(row.conflicts);
  return option;
}

/** Adds each row's flag to `command`, in the table's order. */
export function addFlags(command: Command, rows: readonly FlagRow[]): Command {
  for (const row of rows) command.addOption(optionOf(row));
  return command;
}
