/**
 * A yes/no question on the terminal: `Approve this activity? [y/N] `. Only y or yes confirms;
 * anything else, an empty answer or end of input cancels. Ctrl-C cancels too.
 */
import { createInterface } from "node:readline";
import { inertLines } from "../../../text/stderr.js";

export type Answer = "yes" | "no" | "interrupted";

export function askYesNo(
  question: string,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<Answer> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: true });
    let settled = false;
    const done = (answer: Answer) => {
      if (settled) return;
      settled = true;
      rl.close();
      resolve(answer);
    };
    rl.on("SIGINT", () => {
      output.write("\n");
      done("interrupted");
    });
    rl.on("close", () => done("no"));
    // readline draws the prompt with its own sequences; the question itself is made inert.
    rl.question(`${inertLines(question)} [y/N] `, (text) => {
      done(/^\s*y(es)?\s*$/i.test(text) ? "yes" : "no");
    });
  });
}

/** Whether a question can be asked: input and the prompt's output are both a terminal. */
export function canAsk(
  input: { isTTY?: boolean | undefined },
  output: { isTTY?: boolean | undefined },
): boolean {
  return input.isTTY === true && output.isTTY === true;
}
