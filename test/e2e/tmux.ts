/**
 * The program as a user meets it: a tmux server of its own (`tmux -L <unique socket>`) runs the
 * command in a pane of a fixed size; send-keys types, capture-pane reads the screen.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "../helpers/run-cli.js";
import { waitFor } from "../helpers/wait-for.js";

let sockets = 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** true when `check` holds of `screen`; else what it said (an assertion's message), or "". */
function judge(check: (screen: string) => unknown, screen: string): true | string {
  try {
    return check(screen) === false ? "" : true;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export function requireTmux(): void {
  try {
    execFileSync("tmux", ["-V"]);
  } catch {
    throw new Error(
      "tmux is needed for the terminal end-to-end tests: apt-get install tmux (.ci/run installs it)",
    );
  }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Settings of the environment the program would read: none comes from the test's own shell. */
const TURNKEY_SETTINGS = [
  "TURNKEY_BASE_URL",
  "TURNKEY_ORGANIZATION_ID",
  "TURNKEY_API_PUBLIC_KEY",
  "TURNKEY_API_PRIVATE_KEY",
  "TURNKEY_AUTH_PROXY_URL",
  "TURNKEY_AUTH_PROXY_CONFIG_ID",
  "TVC_ORG_ID",
  "TVC_API_KEY_PUBLIC",
  "TVC_API_KEY_PRIVATE",
  "TVC_API_BASE_URL",
  "TVCWATCH_CONFIG",
];

export class Tmux {
  readonly socket = `tvcwatch-test-${process.pid}-${++sockets}`;
  readonly session = "t";

  run(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  /**
   * Starts `tvcwatch <args>` in a `columns` x `rows` pane, with a clean Turnkey environment
   * (an empty XDG_CONFIG_HOME) plus `env`; when it exits the pane shows `TVCWATCH-EXITED <code>`.
   * `options` are tmux options set before the program starts.
   */
  start(
    args: string[],
    size: { columns: number; rows: number },
    env: Record<string, string> = {},
    options: [string, string][] = [],
  ): void {
    this.launch("", args, size, env, options);
  }

  /**
   * As `start`, with the file `input` piped into its standard input and the pipe then kept open
   * (a stream still coming, as `tail -f … |` gives), so keys come from the terminal, not stdin.
   * Through bash's process substitution, so the pane's shell does not wait for the writer once
   * tvcwatch exits.
   */
  startPiped(input: string, args: string[], size: { columns: number; rows: number }): void {
    const script = join(mkdtempSync(join(tmpdir(), "tvcwatch-pipe-")), "piped.sh");
    writeFileSync(script, `exec "$@" < <(cat ${quote(input)}; sleep 300)\n`);
    this.launch(`bash ${quote(script)} `, args, size, {}, []);
  }

  private launch(
    pipe: string,
    args: string[],
    size: { columns: number; rows: number },
    env: Record<string, string>,
    options: [string, string][],
  ): void {
    const fullEnv = {
      TERM: "xterm-256color",
      XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "tvcwatch-xdg-")),
      ...env,
    };
    const assignments = Object.entries(fullEnv)
      .map(([k, v]) => `${k}=${quote(v)}`)
      .join(" ");
    this.run(
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-s",
      this.session,
      "-x",
      String(size.columns),
      "-y",
      String(size.rows),
      // Options take effect before the program starts: it waits for the go file.
      `while [ ! -e ${quote(this.goFile)} ]; do sleep 0.05; done; ${pipe}env -u CI ${TURNKEY_SETTINGS.map((v) => `-u ${v}`).join(" ")} ${assignments} ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(" ")}; echo TVCWATCH-EXITED $?; sleep 300`,
    );
    for (const [name, value] of options) this.run("set-option", "-g", name, value);
    execFileSync("touch", [this.goFile]);
  }

  private readonly goFile = join(mkdtempSync(join(tmpdir(), "tvcwatch-tmux-")), "go");

  /** The screen; `joined`: lines the terminal wrapped read whole (tmux's -J). */
  screen(options: { joined?: boolean } = {}): string {
    return this.run("capture-pane", "-p", ...(options.joined ? ["-J"] : []), "-t", this.session);
  }

  /** The screen with its colours and attributes, as SGR sequences tmux writes them. */
  screenWithAttributes(): string {
    return this.run("capture-pane", "-p", "-e", "-t", this.session);
  }

  /** The pane's title: what an OSC 0 or OSC 2 from the program would set. */
  title(): string {
    return this.run("display-message", "-p", "-t", this.session, "#{pane_title}").trim();
  }

  /** tmux paste buffers: what an OSC 52 from the program would fill (with set-clipboard on). */
  buffers(): string {
    return this.run("list-buffers");
  }

  /**
   * The screen once it satisfies `check` as a whole: captured until `check` holds (returns
   * anything but false and throws no assertion) on two captures in a row, 40 ms apart, that
   * agree, so a capture taken while the program writes a frame (half of it the old one) is never
   * judged. Put the whole assertion in `check`: a screen waited for by one string, then judged,
   * may be one the last key has not reached yet. Past the timeout it throws what `check` said of
   * the last screen, with the screen. `attributes`: captures with colours and attributes;
   * `joined`: lines the terminal wrapped read whole.
   */
  async waitFor(
    what: string,
    check: (screen: string) => unknown,
    options: { timeoutMs?: number; attributes?: boolean; joined?: boolean } = {},
  ): Promise<string> {
    const capture = () =>
      options.attributes
        ? this.screenWithAttributes()
        : this.screen({ joined: options.joined ?? false });
    let last = "";
    let why = "";
    let settled = "";
    await waitFor(
      async () => {
        const screen = capture();
        const verdict = judge(check, screen);
        if (verdict !== true) {
          last = screen;
          why = verdict;
          return false;
        }
        await sleep(40);
        if (capture() !== screen) return false;
        settled = screen;
        return true;
      },
      what,
      {
        timeoutMs: options.timeoutMs ?? 20_000,
        detail: () => `${why ? `${why}; ` : ""}the screen was:\n${last}`,
      },
    );
    return settled;
  }

  /** Keys as tmux names them (`Enter`, `C-w`, `PageDown`, `a`), sent in order. */
  keys(...keys: string[]): void {
    for (const key of keys) this.run("send-keys", "-t", this.session, key);
  }

  /** Literal text, typed as is. */
  type(text: string): void {
    this.run("send-keys", "-t", this.session, "-l", "--", text);
  }

  /**
   * How wide this tmux draws each text: a small program in another window of the same server
   * prints each one at the start of a cleared screen and asks the terminal where the cursor is.
   */
  async drawnWidths(texts: readonly string[]): Promise<Map<string, number>> {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-widths-"));
    const input = join(dir, "in.json");
    const output = join(dir, "out.json");
    writeFileSync(input, JSON.stringify(texts));
    writeFileSync(join(dir, "measure.mjs"), MEASURE);
    this.run(
      "new-window",
      "-d",
      "-t",
      this.session,
      `${quote(process.execPath)} ${quote(join(dir, "measure.mjs"))} ${quote(input)} ${quote(output)}`,
    );
    await waitFor(() => existsSync(output), "the width measurement", { everyMs: 100 });
    const widths = JSON.parse(readFileSync(output, "utf8")) as [string, number][];
    return new Map(widths);
  }

  kill(): void {
    try {
      this.run("kill-server");
    } catch {
      // already gone
    }
  }
}

/** Prints each text alone and reads the cursor column back (DSR), in raw mode. */
const MEASURE = `
import { readFileSync, writeFileSync } from "node:fs";
const texts = JSON.parse(readFileSync(process.argv[2], "utf8"));
process.stdin.setRawMode(true);
process.stdin.resume();
let buffer = "";
const column = () => new Promise((resolve) => {
  const onData = (d) => {
    buffer += d.toString();
    const m = /\\x1b\\[(\\d+);(\\d+)R/.exec(buffer);
    if (!m) return;
    buffer = "";
    process.stdin.off("data", onData);
    resolve(Number(m[2]) - 1);
  };
  process.stdin.on("data", onData);
});
const out = [];
for (const t of texts) {
  process.stdout.write("\\x1b[2J\\x1b[H" + t + "\\x1b[6n");
  out.push([t, await column()]);
}
writeFileSync(process.argv[3] + ".tmp", JSON.stringify(out));
(await import("node:fs")).renameSync(process.argv[3] + ".tmp", process.argv[3]);
process.exit(0);
`;
