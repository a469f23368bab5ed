import { Command, CommanderError } from "commander";
import { maskKeyMaterial } from "../config/key-material.js";
import { CliError } from "./cli-error.js";
import { registerActivityCommand } from "./commands/activity.js";
import { registerCallCommand } from "./commands/call.js";
import { registerCompletionCommand } from "./commands/completion.js";
import { registerDemoCommand } from "./commands/demo.js";
import { registerDoctorCommand } from "./commands/doctor.js";
import { registerKeysCommand } from "./commands/keys.js";
import { registerSimCommand } from "./commands/sim.js";
import { registerTailCommand } from "./commands/tail.js";
import { registerWatchCommand } from "./commands/watch.js";
import { addGlobalOptions } from "./context.js";
import { readVersion } from "./version.js";

/** Builds the command tree. Each subcommand lives in its own file under ./commands. */
export function buildProgram(): Command {
  const program = new Command("tvcwatch")
    .description(
      "Watch a Turnkey Verifiable Cloud deployment and a Turnkey organization from the terminal:\n" +
        "live-tail debug logs, follow activities, email delivery and Solana transfers.",
    )
    .version(readVersion(), "-V, --version", "print the version")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({
      outputError: (text, write) => write(text.startsWith("error:") ? `tvcwatch: ${text}` : text),
    })
    .exitOverride();
  addGlobalOptions(program);
  registerWatchCommand(program);
  registerDemoCommand(program);
  registerTailCommand(program);
  registerCallCommand(program);
  registerActivityCommand(program);
  registerSimCommand(program);
  registerKeysCommand(program);
  registerDoctorCommand(program);
  registerCompletionCommand(program);
  return program;
}

/** The last line of defence: whatever an error says, a key's hex is not echoed. */
function printError(err: unknown): number {
  if (err instanceof CliError) {
    process.stderr.write(`tvcwatch: ${maskKeyMaterial(err.message)}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(
    `tvcwatch: unexpected error: ${maskKeyMaterial(message.split("\n")[0] ?? "")}\n`,
  );
  if (process.env.TVCWATCH_DEBUG) process.stderr.write(`${(err as Error)?.stack ?? ""}\n`);
  return 1;
}

export async function main(argv: string[]): Promise<void> {
  // A closed pipe (`tvcwatch ... | head`) ends the program quietly, as it does for cat or grep.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
  });
  const program = buildProgram();
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
