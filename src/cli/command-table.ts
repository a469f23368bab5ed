/**
 * The program's commands as the top-level help lists them, and where each is defined. `main`
 * registers only the command being run (its module loaded on demand), so `tvcwatch tail`
 * never loads the dashboard or the simulator; `--help` lists the others from this table.
 * The summaries are in command-summaries.ts, which each command reads for its own help too.
 */
import type { Command } from "commander";
import { COMMAND_SUMMARIES, type CommandName } from "./command-summaries.js";

export interface CommandEntry {
  /** The command as the help lists it: name, `[options]`, arguments. */
  term: string;
  summary: string;
  load(): Promise<(program: Command) => void>;
}

export const COMMANDS = {
  watch: {
    term: "watch [options]",
    summary: COMMAND_SUMMARIES.watch,
    load: () => import("./commands/watch/watch-command.js").then((m) => m.registerWatchCommand),
  },
  demo: {
    term: "demo [options]",
    summary: COMMAND_SUMMARIES.demo,
    load: () => import("./commands/demo/demo-command.js").then((m) => m.registerDemoCommand),
  },
  tail: {
    term: "tail [options]",
    summary: COMMAND_SUMMARIES.tail,
    load: () => import("./commands/tail/tail-command.js").then((m) => m.registerTailCommand),
  },
  open: {
    term: "open [options] <file...>",
    summary: COMMAND_SUMMARIES.open,
    load: () => import("./commands/open/open-command.js").then((m) => m.registerOpenCommand),
  },
  call: {
    term: "call [options] [operation]",
    summary: COMMAND_SUMMARIES.call,
    load: () => import("./commands/call/call-command.js").then((m) => m.registerCallCommand),
  },
  activity: {
    term: "activity",
    summary: COMMAND_SUMMARIES.activity,
    load: () =>
      import("./commands/activity/activity-command.js").then((m) => m.registerActivityCommand),
  },
  sim: {
    term: "sim [options]",
    summary: COMMAND_SUMMARIES.sim,
    load: () => import("./commands/sim/sim-command.js").then((m) => m.registerSimCommand),
  },
  keys: {
    term: "keys",
    summary: COMMAND_SUMMARIES.keys,
    load: () => import("./commands/keys/keys-command.js").then((m) => m.registerKeysCommand),
  },
  doctor: {
    term: "doctor [options]",
    summary: COMMAND_SUMMARIES.doctor,
    load: () => import("./commands/doctor/doctor-command.js").then((m) => m.registerDoctorCommand),
  },
  completion: {
    term: "completion <shell>",
    summary: COMMAND_SUMMARIES.completion,
    load: () =>
      import("./commands/completion/completion-command.js").then(
        (m) => m.registerCompletionCommand,
      ),
  },
  "lnav-format": {
    term: "lnav-format",
    summary: COMMAND_SUMMARIES["lnav-format"],
    load: () =>
      import("./commands/lnav-format/lnav-format-command.js").then(
        (m) => m.registerLnavFormatCommand,
      ),
  },
} as const satisfies Record<CommandName, CommandEntry>;

export type { CommandName };

/** The command run when none is named. */
export const DEFAULT_COMMAND: CommandName = "watch";

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
