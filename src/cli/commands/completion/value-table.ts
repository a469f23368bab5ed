/**
 * The tables every completion script is generated from, flattened from the completion tree:
 * keys of the form `PATH/NAME` where PATH is the command path joined by spaces ("" for the
 * program) and NAME a subcommand, an option (`--output`) or a positional index (`#0`).
 */
import type { CompletionTree, CompletionWord, ValueSpec } from "./tree.js";
import { optionsAt } from "./tree.js";

export interface SubcommandEntry {
  key: string;
  /** The canonical name a word (the name or an alias) stands for. */
  name: string;
}

export interface ValueEntry {
  key: string;
  value: ValueSpec;
}

export interface PathEntry {
  path: string;
  subcommands: CompletionWord[];
  /** Each option with all its spellings (`-o`, `--output`). */
  options: { names: string[]; description: string }[];
}

export interface CompletionTables {
  program: string;
  /** The word that names a subcommand at a path: `keys/generate` -> generate. */
  subcommands: SubcommandEntry[];
  /** What follows an option, or fills a positional argument, at a path. */
  values: ValueEntry[];
  /** Per path: the subcommand names and option names to offer. */
  paths: PathEntry[];
}

/** Completion words must be single shell words; a word that is not would break every script. */
function checkWord(word: string): string {
  if (!/^[\w@%+,./:=-]+$/.test(word)) throw new Error(`completion word ${JSON.stringify(word)}`);
  return word;
}

export function completionTables(tree: CompletionTree): CompletionTables {
  const subcommands: SubcommandEntry[] = [];
  const values: ValueEntry[] = [];
  const paths: PathEntry[] = [];
  for (const command of tree.commands) {
    const path = command.path.join(" ");
    for (const sub of command.subcommands) {
      for (const word of [sub.name, ...sub.aliases])
        subcommands.push({ key: `${path}/${checkWord(word)}`, name: sub.name });
    }
    const options = optionsAt(tree, command);
    for (const option of options) {
      if (!option.value) continue;
      for (const name of option.names) values.push({ key: `${path}/${name}`, value: option.value });
    }
    command.positionals.forEach((value, i) => {
      values.push({ key: `${path}/#${i}`, value });
    });
    paths.push({
      path,
      subcommands: command.subcommands.map((s) => ({
        value: checkWord(s.name),
        description: s.description,
      })),
      options: options.map((o) => ({
        names: o.names.map(checkWord),
        description: o.description,
      })),
    });
  }
  for (const { value } of values) {
    if (value.kind === "words") for (const w of value.words) checkWord(w.value);
  }
  return { program: tree.program, subcommands, values, paths };
}
