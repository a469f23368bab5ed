import { ReadStream } from "node:tty";
import type { Command } from "commander";
import { openTerminalForKeys } from "../../../config/named-file.js";
import type { FieldQuery } from "../../../logs/field-query.js";
import { type OpenedLogs, openSavedLogs } from "../../../logs/saved/open-saved.js";
import { shouldColour } from "../../../text/colour.js";
import type { TimeBound } from "../../../text/time-bound.js";
import { CliError } from "../../cli-error.js";
import { commandSummary } from "../../command-summaries.js";
import { collectQuery, fieldListFlag, timeBoundFlag } from "../../flag-parsers.js";
import { governHeap, holdYoungGeneration, YOUNG_GENERATION_HELD } from "../../heap-governor.js";
import { type OpenRange, openRange } from "./open-range.js";

/** Said when standard output is no terminal: what reads saved lines without one. */
export const NO_TERMINAL =
  "open needs a terminal (standard output is none); without one read the file with less, grep or jq (NDJSON), or lnav (tvcwatch lnav-format prints its format)";

interface OpenFlags {
  follow?: boolean;
  where?: FieldQuery[];
  since?: TimeBound;
  until?: TimeBound;
  fields?: string[];
  clipboard?: boolean;
}

/**
 * The terminal keys are read from: standard input when it is one, else the controlling terminal
 * (standard input is then the log, or not a terminal), opened by named-file.ts.
 */
function keyboard(): { keys: ReadStream; close(): void } {
  if (process.stdin.isTTY) return { keys: process.stdin as ReadStream, close() {} };
  const fd = openTerminalForKeys();
  if (fd === undefined) throw new CliError(`${NO_TERMINAL} (no terminal to read keys from)`, 2);
  const keys = new ReadStream(fd);
  return {
    keys,
    close() {
      // The stream closes its descriptor.
      keys.destroy();
    },
  };
}

export function registerOpenCommand(program: Command): void {
  program
    .command("open")
    .summary(commandSummary("open"))
    .description(
      "Read saved logs in the dashboard's log pane, with every reading key (levels, search, filters, context, marks, detail, S, T, J, replica keys, i): the NDJSON of tail -o json or of S, tail's text (with or without --timestamps), or any other text; .gz files as they are. Several files are merged by time. - reads standard input, followed as it grows (tvcwatch tail -f -o json | tvcwatch open -). Needs no configuration and no credentials.",
    )
    .argument("<file...>", "saved logs to read; - for standard input")
    .option("--follow", "read the files further as they grow (a pipe or a FIFO always is)")
    .option(
      "--where <query>",
      "open with this field query set, as the = key sets one (FIELD OP VALUE with = != > >= < <= ~, and, or, not, parentheses, e.g. 'latencyMs > 300'; a line without the field does not match; repeatable: all must hold)",
      collectQuery,
    )
    .option(
      "--since <time>",
      "show only events from this time: a duration back from the newest line read (10m, 1h30m), a clock time (20:33, 20:33:05: on the newest line's day, local zone) or RFC 3339 (2026-11-25T20:33:05Z); Esc or X shows every line again",
      timeBoundFlag(1000, 366 * 86_400_000),
    )
    .option(
      "--until <time>",
      "show only events until this time, the same forms as --since",
      timeBoundFlag(0, 366 * 86_400_000),
    )
    .option(
      "--fields <list>",
      "open with the lines shown as columns of these fields, as the | key shows them (e.g. time,replica,level,msg,service,latencyMs; a column is at most 40 wide, cut with …; Enter shows a line whole)",
      fieldListFlag,
    )
    .option(
      "--clipboard",
      "c copies the cursor's log line to the terminal's clipboard (OSC 52; some terminals refuse it)",
    )
    .addHelpText(
      "after",
      `
Examples:
  tvcwatch open incident.ndjson
  tvcwatch open app-1.log.gz app-2.log.gz
  tvcwatch open incident.ndjson --since 20:33 --until 20:40
  tvcwatch open incident.ndjson --since 15m --where 'level >= warn' --fields time,level,msg
  tvcwatch tail -f -o json | tvcwatch open -`,
    )
    .action(async (files: string[], flags: OpenFlags) => {
      // As the dashboard's other commands: the young generation held at its start-up size
      // before the reader and Ink load, the heap kept near what it holds (a followed pipe); held
      // again by each worker indexing a large file as soon as it runs (its start lets it grow
      // again), and here once told it runs.
      holdYoungGeneration();
      let opened: OpenedLogs;
      // The rest of a large file is indexed once the newest screen is drawn (or on the way out).
      let drawn: () => void = () => {};
      // Until then the event loop has a timer of its own: the UI's start waits for work off the
      // loop (its layout engine's WebAssembly is compiled in the background), and a loop with
      // nothing left to wait for makes Node wait for every background task (the compiler's
      // too, started by the first frame) before it runs the loop again, the rest's indexing
      // waiting with it.
      const awake = setInterval(() => {}, 60_000);
      const indexFrom = new Promise<void>((resolve) => {
        drawn = () => {
          clearInterval(awake);
          resolve();
        };
      });
      try {
        opened = await openSavedLogs(files, {
          follow: flags.follow === true,
          indexFrom,
          workerOnline: holdYoungGeneration,
          workerFlags: YOUNG_GENERATION_HELD,
        });
      } catch (err) {
        drawn();
        throw new CliError((err as Error).message, 2);
      }
      let keys: ReturnType<typeof keyboard> | undefined;
      try {
        const range: OpenRange | undefined = openRange(flags, opened.log.summary().to, Date.now());
        if (!process.stdout.isTTY) throw new CliError(NO_TERMINAL, 2);
        keys = keyboard();
        governHeap();
        const { runOpen } = await import("../../../tui/app/run-open.js");
        await runOpen({
          opened,
          keys: keys.keys,
          colour: shouldColour(process.stdout.isTTY),
          clipboard: flags.clipboard === true,
          drawn,
          where: flags.where?.map((q) => q.source),
          range,
          columns: flags.fields,
        });
      } finally {
        drawn();
        opened.close();
        keys?.close();
      }
    });
}
