// The pictures in the README and docs/, made from the program itself: `npm run screenshots`
// (which bundles first). Each starts `tvcwatch demo --scenario incident` with a fixed seed in a
// tmux server of its own at a fixed size, drives keys, waits for a settled frame (the expected
// content on screen and the frame the same over several captures, never a guessed while),
// captures it with its colours (`capture-pane -e`) and writes it as SVG into docs/. The demo's
// simulator listens on loopback only; nothing else is contacted.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Anser from "anser";
import stringWidth from "string-width";

const root = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(root, "bin", "tvcwatch");
const SEED = "7";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A tmux server of this script's own, one session at a fixed size running the demo. */
class Screen {
  constructor(name, columns, rows) {
    this.socket = `tvcwatch-screenshots-${process.pid}-${name}`;
    this.columns = columns;
    this.rows = rows;
    this.home = mkdtempSync(join(tmpdir(), "tvcwatch-screenshots-"));
  }

  tmux(...args) {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], {
      encoding: "utf8",
    });
  }

  start() {
    const env = [
      "TERM=xterm-256color",
      "LANG=C.UTF-8",
      `HOME=${this.home}`,
      `XDG_CONFIG_HOME=${this.home}`,
    ];
    const command = `env -u NO_COLOR -u CI ${env.join(" ")} ${process.execPath} ${BIN} demo --scenario incident --seed ${SEED} --no-bell`;
    this.tmux(
      "new-session",
      "-d",
      "-s",
      "s",
      "-x",
      String(this.columns),
      "-y",
      String(this.rows),
      command,
    );
    this.tmux("set-option", "-t", "s", "remain-on-exit", "on");
  }

  /** Starts the demo and waits for its dashboard to follow with the side panes drawn. */
  async startDashboard() {
    this.start();
    const up = await this.until((s) => s.includes("following") && s.includes("Activities"), 30_000);
    if (!up) throw new Error(`the dashboard did not start:\n${this.plain()}`);
  }

  keys(...keys) {
    for (const key of keys) this.tmux("send-keys", "-t", "s", key);
  }

  /** Typed as text, not as key names. */
  type(text) {
    this.tmux("send-keys", "-t", "s", "-l", text);
  }

  plain() {
    return this.tmux("capture-pane", "-p", "-t", "s");
  }

  coloured() {
    return this.tmux("capture-pane", "-e", "-p", "-t", "s");
  }

  /** The screen once `check` holds of it, or undefined when it has not within `ms`. */
  async until(check, ms) {
    const end = Date.now() + ms;
    for (;;) {
      const screen = this.plain();
      if (check(screen)) return screen;
      if (this.tmux("display-message", "-p", "-t", "s", "#{pane_dead}").trim() === "1")
        throw new Error(`the demo exited:\n${screen}`);
      if (Date.now() > end) return undefined;
      await sleep(200);
    }
  }

  /** The coloured capture of a frame that satisfies `check` and is the same three captures running. */
  async settled(what, check, ms = 30_000) {
    const end = Date.now() + ms;
    let last = "";
    let same = 0;
    for (;;) {
      const frame = this.coloured();
      const text = this.plain();
      same = frame === last && check(text) ? same + 1 : 0;
      last = frame;
      if (same >= 2) return frame;
      if (Date.now() > end)
        throw new Error(`no settled frame with ${what} within ${ms} ms:\n${text}`);
      await sleep(250);
    }
  }

  kill() {
    try {
      const socketPath = this.tmux("display-message", "-p", "#{socket_path}").trim();
      this.tmux("kill-server");
      // tmux leaves its socket file behind.
      if (socketPath) rmSync(socketPath, { force: true });
    } catch {
      // already gone
    }
    rmSync(this.home, { recursive: true, force: true });
  }
}

const FONT_SIZE = 14;
const CELL_WIDTH = 8.4;
const LINE_HEIGHT = 17;
const PAD = 12;
const BACKGROUND = "#16181d";
const FOREGROUND = "#d8dee9";

const escapeXml = (s) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/**
 * The 16 colours of the terminal, as anser names them (its own palette's strings), drawn in a
 * palette that reads on a dark background; 256-colour and true-colour values are kept as they are.
 */
const THEME = new Map([
  ["0, 0, 0", "#3b4252"],
  ["187, 0, 0", "#e06c75"],
  ["0, 187, 0", "#98c379"],
  ["187, 187, 0", "#e5c07b"],
  ["0, 0, 187", "#61afef"],
  ["187, 0, 187", "#c678dd"],
  ["0, 187, 187", "#56b6c2"],
  ["255,255,255", "#dcdfe4"],
  ["85, 85, 85", "#7f8796"],
  ["255, 85, 85", "#ef7d87"],
  ["0, 255, 0", "#a9d68a"],
  ["255, 255, 85", "#f0d08c"],
  ["85, 85, 255", "#7ec2ff"],
  ["255, 85, 255", "#d89cec"],
  ["85, 255, 255", "#6ccfdb"],
  ["255, 255, 255", "#ffffff"],
]);
const rgb = (c) => (c ? (THEME.get(c) ?? `rgb(${c.replace(/ /g, "")})`) : undefined);

/** One row of the capture as runs with their style, each placed at its column. */
function runsOf(row) {
  const parsed = Anser.ansiToJson(row, { json: true, remove_empty: true, use_classes: false });
  const runs = [];
  let column = 0;
  for (const part of parsed) {
    const text = part.content;
    if (!text) continue;
    let fg = rgb(part.fg_truecolor ?? part.fg);
    let bg = rgb(part.bg_truecolor ?? part.bg);
    if (part.isInverted) [fg, bg] = [bg ?? BACKGROUND, fg ?? FOREGROUND];
    const width = stringWidth(text);
    runs.push({ text, column, width, fg, bg, decorations: part.decorations ?? [] });
    column += width;
  }
  return runs;
}

/** The frame as SVG: a rect per coloured background, a <text> per row and a <tspan> per run. */
function svgOf(frame, columns, rows, title) {
  const width = Math.ceil(columns * CELL_WIDTH + 2 * PAD);
  const height = rows * LINE_HEIGHT + 2 * PAD;
  const backgrounds = [];
  const texts = [];
  frame
    .replace(/\n$/, "")
    .split("\n")
    .slice(0, rows)
    .forEach((row, index) => {
      const top = PAD + index * LINE_HEIGHT;
      const baseline = top + LINE_HEIGHT - 4;
      const spans = [];
      for (const run of runsOf(row)) {
        const x = (PAD + run.column * CELL_WIDTH).toFixed(1);
        if (run.bg)
          backgrounds.push(
            `<rect x="${x}" y="${top}" width="${(run.width * CELL_WIDTH).toFixed(1)}" height="${LINE_HEIGHT}" fill="${run.bg}"/>`,
          );
        if (run.text.trim() === "") continue;
        const attrs = [`x="${x}"`];
        if (run.fg) attrs.push(`fill="${run.fg}"`);
        if (run.decorations.includes("bold")) attrs.push(`font-weight="bold"`);
        if (run.decorations.includes("dim")) attrs.push(`fill-opacity="0.6"`);
        if (run.decorations.includes("italic")) attrs.push(`font-style="italic"`);
        if (run.decorations.includes("underline")) attrs.push(`text-decoration="underline"`);
        spans.push(`<tspan ${attrs.join(" ")}>${escapeXml(run.text)}</tspan>`);
      }
      if (spans.length > 0)
        texts.push(`<text y="${baseline}" xml:space="preserve">${spans.join("")}</text>`);
    });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" rx="6" fill="${BACKGROUND}"/>`,
    ...backgrounds,
    `<g font-family="'DejaVu Sans Mono', 'Menlo', 'Consolas', 'Liberation Mono', monospace" font-size="${FONT_SIZE}" fill="${FOREGROUND}">`,
    ...texts,
    "</g>",
    "</svg>",
    "",
  ].join("\n");
}

function write(name, frame, screen, title) {
  const path = join(root, "docs", name);
  writeFileSync(path, svgOf(frame, screen.columns, screen.rows, title));
  process.stdout.write(`wrote ${path}\n`);
}

/**
 * The dashboard at 160x48 during the incident: replica 2's errors rise and it crashes (about 45 s
 * after the start). `/stopped sending` finds the log's marker of its silence once it is there,
 * with its errors above it, and the view stays on it (a search pauses the log).
 */
async function dashboard() {
  const screen = new Screen("dashboard", 160, 48);
  try {
    await screen.startDashboard();
    const marker = (s) =>
      /── replica 2\/\d+ stopped sending/.test(s) &&
      !s.includes("no older match") &&
      !s.includes("reading the lines");
    const end = Date.now() + 150_000;
    for (;;) {
      screen.keys("/");
      screen.type("stopped sending");
      screen.keys("Enter");
      if (await screen.until(marker, 2_000)) break;
      if (Date.now() > end) throw new Error(`replica 2 never stopped:\n${screen.plain()}`);
      // Not there yet: close the search and follow again, then look once more.
      screen.keys("Escape", "Escape", "G");
      await screen.until((s) => s.includes("following") && !s.includes("search /"), 5_000);
    }
    const frame = await screen.settled("the marker of replica 2's crash", marker);
    write("dashboard-160x48.svg", frame, screen, "tvcwatch demo --scenario incident at 160x48");
  } finally {
    screen.kill();
  }
}

/**
 * "What happened first, and what else happened then", at 160x48 during the incident: `!` on the
 * error that began it (the rule in the status line), times of day in the log and the side panes
 * (`T`), each pane marking its records nearest the cursor's time, and the panes' events among the
 * lines (`I`). `!` is pressed again until the buffer holds the baseline it needs.
 */
async function onset() {
  const screen = new Screen("onset", 160, 48);
  try {
    await screen.startDashboard();
    screen.keys("T", "I");
    const found = (s) => s.includes("first message new to it") && / at \d\d:\d\d:\d\d/.test(s);
    const end = Date.now() + 180_000;
    for (;;) {
      screen.keys("!");
      if (await screen.until(found, 3_000)) break;
      if (Date.now() > end) throw new Error(`! found no onset:\n${screen.plain()}`);
      screen.keys("Escape", "G");
      await sleep(2_000);
    }
    const frame = await screen.settled("the onset, every pane at its time", found);
    write("onset-160x48.svg", frame, screen, "! in tvcwatch demo --scenario incident at 160x48");
  } finally {
    screen.kill();
  }
}

/** The vote confirmation at 80x24: the first activity awaiting my vote, approved with A. */
async function vote() {
  const screen = new Screen("vote", 80, 24);
  try {
    screen.start();
    const awaiting = await screen.until((s) => /⚑ ?\d+/.test(s), 30_000);
    if (!awaiting) throw new Error(`no activity awaits a vote:\n${screen.plain()}`);
    // Tab selects the pane's first row; v hides the rows not awaiting my vote, and ↓ selects the
    // first that is.
    screen.keys("Tab", "v");
    await screen.until((s) => s.includes("awaiting") || s.includes("aw…"), 5_000);
    screen.keys("Down", "A");
    const frame = await screen.settled(
      "the confirmation, decoded",
      (s) =>
        s.includes("Approve this activity?") &&
        s.includes("you approve") &&
        s.includes("decoded") &&
        !s.includes("decoding what"),
    );
    write("vote-80x24.svg", frame, screen, "the vote confirmation of tvcwatch demo at 80x24");
    screen.keys("n");
  } finally {
    screen.kill();
  }
}

await vote();
await dashboard();
await onset();
