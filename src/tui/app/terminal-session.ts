/**
 * Full-screen terminal session: the alternate screen and a hidden cursor while the dashboard
 * runs, and the terminal restored exactly on every way out (q, Ctrl-C, SIGTERM, SIGHUP, an
 * uncaught error, process exit).
 */
import { sayOnStderr } from "../../text/stderr.js";

const ENTER = "\u001b[?1049h\u001b[H\u001b[?25l";
const LEAVE = "\u001b[?25h\u001b[?1049l";

export interface TerminalSession {
  restore(): void;
}

export function enterFullScreen(stream: NodeJS.WriteStream, onSignal: () => void): TerminalSession {
  let active = true;
  stream.write(ENTER);
  const restore = () => {
    if (!active) return;
    active = false;
    stream.write(LEAVE);
    process.off("exit", restore);
    process.off("SIGTERM", onTerm);
    process.off("SIGHUP", onTerm);
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
  };
  const onTerm = () => onSignal();
  const onCrash = (err: unknown) => {
    restore();
    sayOnStderr(`unexpected error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  };
  process.on("exit", restore);
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onTerm);
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  return { restore };
}

/**
 * OSC 52: asks the terminal to put `text` on its clipboard (base64, so nothing in it is read as
 * a sequence). Terminals that refuse it ignore it; tmux keeps it as a paste buffer.
 */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, "utf8").toString("base64")}\u0007`;
}
