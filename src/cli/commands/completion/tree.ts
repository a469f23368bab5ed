/**
 * What shell completion knows about the program, read from the commander tree itself: every
 * command path, its subcommands, its options (which take a value, and which values), and the
 * values of its positional arguments. A command or flag added to the program is completed
 * without touching the completion scripts, which are generated from this.
 */
import type { Argument, Command, Option } from "commander";

/** A value a completion offers, with what it means when a shell can show that. */
export interface CompletionWord {
  value: string;
  description?: string;
}

/**
 * What follows an option, or fills a positional argument: one of a list of words, a file path,
 * a directory path, or free text (a duration, an ID) that no completion can guess.
 */
export type ValueSpec =
  | { kind: "words"; words: CompletionWord[] }
  | { kind: "file" }
  | { kind: "dir" }
  | { kind: "any" };

export interface CompletionOption {
  /** Every spelling: `-o`, `--output`. */
  names: string[];
  description: string;
  /** Absent for a switch. */
  value?: ValueSpec;
}

export interface CompletionCommand {
  /** Subcommand names from the root: [] is the program, ["keys", "generate"] a nested one. */
  path: string[];
  /** Its subcommands, each with its aliases. */
  subcommands: { name: string; aliases: string[]; description: string }[];
  /**
   * Its own options. The program's options (the global ones) are accepted after every
   * subcommand too, and are in `CompletionTree.globalOptions`, not repeated here.
   */
  options: CompletionOption[];
  /** What each positional argument takes, in order. */
  positionals: ValueSpec[];
}

export interface CompletionTree {
  program: string;
  globalOptions: CompletionOption[];
  /** Every command path, the program first. */
  commands: CompletionCommand[];
}

/** Values the commander tree does not carry (an argument checked in its action, say). */
export interface ExtraValues {
  /** A command path joined by spaces ("" for the program), or "*" for every command. */
  command: string;
  /** The option's long name (`--scenario`), or the positional argument's index. */
  target: string | number;
  words: CompletionWord[];
}

/** One line, collapsed whitespace: a description as a completion menu shows it. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function optionValue(
  option: Option,
  path: string,
  extras: readonly ExtraValues[],
): ValueSpec | undefined {
  if (!option.required && !option.optional) return undefined;
  if (option.argChoices && option.argChoices.length > 0) {
    return { kind: "words", words: option.argChoices.map((value) => ({ value })) };
  }
  const long = option.long ?? option.short ?? "";
  const extra = extras.find((e) => e.target === long && (e.command === path || e.command === "*"));
  if (extra) return { kind: "words", words: extra.words };
  // The value's name in the flags says what it is: `--config <file>`, `--keys-folder <dir>`.
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? "";
  if (/^(file|path)$/i.test(valueName)) return { kind: "file" };
  if (/^(dir|directory|folder)$/i.test(valueName)) return { kind: "dir" };
  return { kind: "any" };
}

function completionOption(
  option: Option,
  path: string,
  extras: readonly ExtraValues[],
): CompletionOption {
  const names = [option.short, option.long].filter((n): n is string => Boolean(n));
  const value = optionValue(option, path, extras);
  return { names, description: oneLine(option.description), ...(value ? { value } : {}) };
}

function positional(
  argument: Argument,
  index: number,
  path: string,
  extras: readonly ExtraValues[],
  siblings: CompletionWord[],
): ValueSpec {
  if (argument.argChoices && argument.argChoices.length > 0) {
    return { kind: "words", words: argument.argChoices.map((value) => ({ value })) };
  }
  const extra = extras.find((e) => e.target === index && e.command === path);
  if (extra) return { kind: "words", words: extra.words };
  // `open <file...>`: files.
  if (/^(file|path)s?$/i.test(argument.name())) return { kind: "file" };
  // commander's own `help [command]` takes the name of a command beside it.
  if (path.split(" ").at(-1) === "help" && argument.name() === "command") {
    return { kind: "words", words: siblings };
  }
  return { kind: "any" };
}

/**
 * The command commander runs when none is named (`.command("watch", { isDefault: true })`).
 * Its options are accepted at the top level, so they are completed there. commander keeps it in
 * a field of its own without an accessor, read here defensively.
 */
function defaultSubcommand(cmd: Command): Command | undefined {
  const name = (cmd as unknown as { _defaultCommandName?: unknown })._defaultCommandName;
  return typeof name === "string" ? cmd.commands.find((c) => c.name() === name) : undefined;
}

/** Reads the completion tree of a commander program (the root command). */
export function buildCompletionTree(
  program: Command,
  extras: readonly ExtraValues[] = [],
): CompletionTree {
  const help = program.createHelp();
  const isHelpOption = (o: Option) => o.long === "--help";
  const globalOptions = help
    .visibleOptions(program)
    .filter((o) => !isHelpOption(o))
    .map((o) => completionOption(o, "", extras));
  const commands: CompletionCommand[] = [];

  const visit = (cmd: Command, path: string[], siblings: CompletionWord[]): void => {
    const key = path.join(" ");
    const visible = help.visibleCommands(cmd);
    const children = visible.map((sub) => ({
      name: sub.name(),
      aliases: sub.aliases(),
      description: oneLine(help.subcommandDescription(sub)),
    }));
    let own = help.visibleOptions(cmd);
    if (path.length === 0) {
      // The program's own options are the global ones; its default command's options also
      // work without naming it (`tvcwatch --deployment D` runs watch).
      const fallback = defaultSubcommand(cmd);
      own = [
        ...own.filter(isHelpOption),
        ...(fallback ? help.visibleOptions(fallback).filter((o) => !isHelpOption(o)) : []),
      ];
    }
    commands.push({
      path,
      subcommands: children,
      options: own.map((o) => completionOption(o, key, extras)),
      positionals: cmd.registeredArguments.map((a, i) => positional(a, i, key, extras, siblings)),
    });
    const words = children.map((c) => ({ value: c.name, description: c.description }));
    for (const sub of visible) visit(sub, [...path, sub.name()], words);
  };
  visit(program, [], []);
  return { program: program.name(), globalOptions, commands };
}

/** The options accepted at a command path: its own, then the global ones it does not redefine. */
export function optionsAt(tree: CompletionTree, command: CompletionCommand): CompletionOption[] {
  const taken = new Set(command.options.flatMap((o) => o.names));
  return [
    ...command.options,
    ...tree.globalOptions.filter((o) => !o.names.some((n) => taken.has(n))),
  ];
}
