import { Command, CommanderError, Help } from "commander";
import { ShipError } from "../ship/ship-error.js";
import { sayOnStderr, writeStderr } from "../text/stderr.js";
import { CliError, shortenQuotedArguments } from "./cli-error.js";
import { COMMANDS, type CommandName, DEFAULT_COMMAND, isCommandName } from "./command-table.js";
import { addGlobalOptions } from "./global-options.js";
import { readVersion } from "./version.js";

type Register = (program: Command) => void;

/**
 * The command tree: the commands given in `registers` in full (flags and action), the others
 * as their name and summary only, for the help's list. Each command lives in ./commands.
 */
export function buildProgram(registers: Partial<Record<CommandName, Register>>): Command {
  const program = new Command("tvcwatch")
    .description(
      "Watch a Turnkey Verifiable Cloud deployment and a Turnkey organization from the terminal:\n" +
        "live-tail debug logs, follow activities, email delivery and Solana transfers.",
    )
    .version(readVersion(), "-V, --version", "print the version")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({
      // Usage errors quote the arguments as typed: they reach stderr as every message does.
      writeErr: (text) => writeStderr(text),
      outputError: (text, write) =>
        write(shortenQuotedArguments(text.startsWith("error:") ? `tvcwatch: ${text}` : text)),
    })
    .configureHelp({
      // A command not loaded is listed as the table has it, as it would be if it were.
      subcommandTerm: (cmd) =>
        isCommandName(cmd.name())
          ? COMMANDS[cmd.name() as CommandName].term
          : new Help().subcommandTerm(cmd),
    })
    .exitOverride();
  addGlobalOptions(program);
  for (const name of Object.keys(COMMANDS) as CommandName[]) {
    const register = registers[name];
    if (register) register(program);
    else
      program
        .command(name, { isDefault: name === DEFAULT_COMMAND })
        .summary(COMMANDS[name].summary);
  }
  return program;
}

/** Options of the root program that take a value (`--config FILE`): their value is no command. */
const VALUE_OPTIONS = new Set([
  "--base-url",
  "--organization",
  "--config",
  "--key-name",
  "--keys-folder",
  "--auth-proxy-url",
  "--auth-proxy-config-id",
  "--max-response-size",
]);

/**
 * The commands to load for these arguments: the one named; the default one when none is named
 * (unless only the root's help or version is asked for); all of them for `completion` and
 * `help`, which read the whole tree, or for a word that is no command (the error names it).
 */
export function commandsToLoad(args: readonly string[]): CommandName[] {
  let rootOnly = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    if (arg.startsWith("-")) {
      if (VALUE_OPTIONS.has(arg)) i += 1;
      if (["-h", "--help", "-V", "--version"].includes(arg)) rootOnly = true;
      continue;
    }
    if (arg === "completion" || arg === "help" || !isCommandName(arg))
      return Object.keys(COMMANDS) as CommandName[];
    return [arg];
  }
  return rootOnly ? [] : [DEFAULT_COMMAND];
}

/** The program with every command in full (completion scripts, tests). */
export async function buildCompleteProgram(): Promise<Command> {
  return buildProgram(await loadRegisters(Object.keys(COMMANDS) as CommandName[]));
}

async function loadRegisters(
  names: readonly CommandName[],
): Promise<Partial<Record<CommandName, Register>>> {
  const entries = await Promise.all(names.map(async (n) => [n, await COMMANDS[n].load()] as const));
  return Object.fromEntries(entries);
}

/** The last line of defence: whatever an error says, a key's hex is not echoed (text/stderr.ts). */
function printError(err: unknown): number {
  if (err instanceof CliError || err instanceof ShipError) {
    sayOnStderr(err.message);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  sayOnStderr(`unexpected error: ${message.split("\n")[0] ?? ""}`);
  if (process.env.TVCWATCH_DEBUG) writeStderr((err as Error)?.stack ?? "");
  return 1;
}

/**
 * An error no command caught (thrown in a callback, a promise nobody awaited) is said as every
 * other one, not printed raw by Node with its stack. The dashboard has its own handler (it
 * restores the terminal first, then says the same): when one is there, it is left to it.
 */
function sayUncaught(event: "uncaughtException" | "unhandledRejection"): void {
  process.on(event, (err: unknown) => {
    if (process.listenerCount(event) > 1) return;
    process.exitCode = printError(err);
    process.exit();
  });
}
let uncaughtSaid = false;

export async function main(argv: string[]): Promise<void> {
  // A closed pipe (`tvcwatch ... | head`) ends the program quietly, as it does for cat or grep.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
  });
  if (!uncaughtSaid) {
    uncaughtSaid = true;
    sayUncaught("uncaughtException");
    sayUncaught("unhandledRejection");
  }
  const program = buildProgram(await loadRegisters(commandsToLoad(argv.slice(2))));
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    process.exitCode = printError(err);
  }
}
