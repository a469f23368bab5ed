/**
 * `tail`'s filters as a user runs them (the bundle against a loopback log server), and held to
 * the dashboard's: the same corpus of levels, JSON lines, Java/Node/Python stack traces and
 * three interleaved replicas, filtered by `tail`'s flags and by the dashboard's view computation
 * with the same filters set, keeps the same lines in the same order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { formatEvent } from "../../src/logs/formats/stream-format.js";
import { groupHeadAt } from "../../src/logs/line-groups.js";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { LogStore } from "../../src/logs/model/log-store.js";
import { computeLogView } from "../../src/tui/log-view/log-view.js";
import { initialUiState, type UiState } from "../../src/tui/state/ui-state.js";
import { type LogServer, startLogServer } from "../helpers/log-server.js";
import { runCli } from "../helpers/run-cli.js";
import { interleave } from "../logs/corpus.js";

let server: LogServer;
const key = generateKeyPair();
const env = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-filters",
};
/** The corpus, every burst printed by some replica, the replicas taking turns unevenly. */
const rows = interleave([0, 1, 1, 2, 0, 2, 2, 1, 0, 0, 1]);

beforeAll(async () => {
  server = await startLogServer({ replicas: 0 });
  const start = server.now() - 60_000;
  for (const [i, r] of rows.entries())
    server.add({ replicaLabel: r.replica, t: start + i * 10, hasTs: true, content: r.content });
});
afterAll(() => server.close());

function tail(flags: string[], extraEnv: Record<string, string> = {}) {
  return runCli(
    ["--base-url", server.url, "tail", "--deployment", "dep", "--since", "5m", ...flags],
    { env: { ...env, ...extraEnv } },
  );
}

interface Printed {
  replicaLabel: string;
  ts: { seconds: string; nanos: string } | null;
  content: string;
  time: string | null;
  level: string | null;
  continues?: true;
}

async function tailJson(flags: string[]): Promise<Printed[]> {
  const r = await tail(["-o", "json", ...flags]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Printed);
}

async function tailText(flags: string[], extraEnv: Record<string, string> = {}): Promise<string[]> {
  const r = await tail(flags, extraEnv);
  expect(r.code).toBe(0);
  return r.stdout.split("\n").filter(Boolean);
}

describe("tail's filter flags", () => {
  it("--level error prints only errors and the lines that continue them", async () => {
    const lines = await tailText(["--level", "error"]);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.some((l) => l.includes("heartbeat ok"))).toBe(false);
    expect(lines.some((l) => l.includes("GET /v1/health"))).toBe(false);
    // The Python trace whole, below its ERROR line; the Java one below its logback message.
    const python = lines.filter((l) => l.startsWith("[replica 2/3]")).map((l) => l.slice(14));
    expect(python).toContain("Traceback (most recent call last):");
    expect(python).toContain("KeyError: 'amount'");
    const all = lines.map((l) => l.replace(/^\[replica \d\/3\] /, ""));
    expect(all).toContain("java.lang.IllegalStateException: ledger closed");
    expect(all).toContain("\t... 12 more");
    expect(all).not.toContain("\tat com.example.Retry.plan(Retry.java:9)");
  });

  it("repeated --grep keeps lines matching any; repeated --exclude drops lines matching any", async () => {
    const either = await tailJson(["--grep", "WARN", "--grep", "ERROR"]);
    expect(either.some((e) => e.content.startsWith("WARN"))).toBe(true);
    expect(either.some((e) => e.content.startsWith("ERROR"))).toBe(true);
    // The frames of a kept line come with it.
    expect(either.some((e) => e.content.startsWith("    at fetchNonce"))).toBe(true);
    const neither = await tailJson(["--exclude", "heartbeat", "--exclude", "HTTP"]);
    expect(neither.length).toBeGreaterThan(20);
    expect(neither.filter((e) => /heartbeat|HTTP/.test(e.content))).toEqual([]);
  });

  it("-A, -B and -C print context as grep, -- between groups in text and nothing between in JSON", async () => {
    const r2 = (lines: string[]) => lines.map((l) => (l === "--" ? l : `[replica 2/3] ${l}`));
    const after = await tailText(["--replica", "2", "--grep", "DEBUG|heartbeat", "-A", "1"]);
    expect(after).toEqual(
      r2([
        "DEBUG cache lookup key=42",
        'level=warn msg="retrying" attempt=2',
        "--",
        "heartbeat ok",
        "2026-01-02 12:00:01.000 INFO  [main] c.e.Ledger - retry scheduled",
      ]),
    );
    const before = await tailText(["--replica", "2", "--grep", "pino error", "-B", "2"]);
    expect(before).toEqual(
      r2([
        'level=warn msg="retrying" attempt=2',
        '{"level":"error","msg":"payment failed","requestId":"r1"}',
        '{"level":50,"msg":"pino error"}',
      ]),
    );
    const around = await tailText(["--replica", "2", "--grep", "heartbeat", "-C", "1"]);
    expect(around).toEqual(
      r2([
        '{"level":50,"msg":"pino error"}',
        "heartbeat ok",
        "2026-01-02 12:00:01.000 INFO  [main] c.e.Ledger - retry scheduled",
      ]),
    );
    const groups = await tailText(["--grep", "heartbeat|HTTP 503", "-C", "1"]);
    expect(groups).toContain("--");
    const json = await tailJson(["--grep", "heartbeat|HTTP 503", "-C", "1"]);
    expect(json).toHaveLength(groups.filter((l) => l !== "--").length);
    const bad = await tail(["-C", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/-C, --context.*expected a whole number/);
  });

  it("--highlight marks matches only on a terminal with colour, and never changes the bytes otherwise", async () => {
    const plain = await tailText(["--grep", "upstream"]);
    const piped = await tailText(["--grep", "upstream", "--highlight", "upstream"]);
    expect(piped).toEqual(plain);
    const coloured = await tailText(
      ["--grep", "upstream", "--highlight", "upstream", "--highlight", "\\d+ms"],
      {
        FORCE_COLOR: "1",
      },
    );
    expect(coloured.join("\n")).toContain("\u001b[7mupstream\u001b[27m");
    expect(coloured.join("\n")).toContain("\u001b[7m1200ms\u001b[27m");
    const stripped = coloured.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ""));
    expect(stripped).toEqual(plain);
  });

  it("--replica naming no replica there is says which there are, and exits 1 when nothing printed", async () => {
    const none = await tail(["--replica", "7"]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe("");
    expect(none.stderr.trim().split("\n")).toEqual([
      "tvcwatch: --replica 7: no such replica; the replicas there are: replica 1/3, replica 2/3, replica 3/3",
    ]);
    const some = await tail(["--replica", "7", "--replica", "2"]);
    expect(some.code).toBe(0);
    expect(some.stdout.length).toBeGreaterThan(0);
    expect(some.stderr).toMatch(
      /^tvcwatch: --replica 7: no such replica; the replicas there are: /,
    );
  });
});

describe("tail --where", () => {
  it("keeps the lines whose fields match, compares numbers as numbers, and reads key=value lines", async () => {
    const warnOrWorse = await tailJson(["--where", "level >= warn"]);
    expect(warnOrWorse.length).toBeGreaterThan(0);
    expect(
      warnOrWorse.every((p) => p.level === "warn" || p.level === "error" || p.level === "fatal"),
    ).toBe(true);
    const retry = await tailJson(["--where", "attempt = 2"]);
    expect(retry.map((p) => p.content)).toContain('level=warn msg="retrying" attempt=2');
    const json = await tailJson(["--where", "requestId = r1 and msg ~ payment"]);
    expect(json.map((p) => p.content)).toContain(
      '{"level":"error","msg":"payment failed","requestId":"r1"}',
    );
    expect(await tailJson(["--where", "requestId = r1", "--where", "msg = nothing"])).toEqual([]);
  });

  it("a malformed query exits 2 with one line naming the token", async () => {
    const r = await tail(["--where", "latencyMs >> 3"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    // The one line, then commander's usage hint, as for every flag.
    const lines = r.stderr.trim().split("\n");
    expect(lines[0]).toMatch(/--where.*expected a value, found ">" at column 12$/);
    expect(lines.slice(1)).toEqual(["(run with --help for usage)"]);
  });
});

describe("tail and the dashboard keep the same lines", () => {
  /** What the follower delivered, unfiltered, as the dashboard's store holds it. */
  let store: LogStore;
  beforeAll(async () => {
    const all = await tailJson([]);
    expect(all).toHaveLength(rows.length);
    store = new LogStore();
    store.append(
      all.map(
        (p, i): LogLine => ({
          kind: "line",
          replicaLabel: p.replicaLabel,
          seconds: p.ts?.seconds,
          nanos: p.ts?.nanos,
          sortKey: i,
          content: p.content,
          late: false,
        }),
      ),
    );
  });

  /** The lines the dashboard's view shows with these filters set, one row each, as tail prints them. */
  function dashboard(over: Partial<UiState>): Printed[] {
    const view = computeLogView(store, { ...initialUiState, ...over }, 400, store.size() + 10);
    const json = { output: "json", timestamps: false, utc: true, colour: false } as const;
    return view.rows.map((row) => {
      const id = Number(row.key.split(":")[0]);
      const index = store.indexOfId(id);
      const line = store.at(index)?.event as LogLine;
      const head = groupHeadAt(store, index);
      return JSON.parse(
        formatEvent(line, json, undefined, head === line ? undefined : head),
      ) as Printed;
    });
  }

  const cases: [string, string[], Partial<UiState>][] = [
    ["a level", ["--level", "error"], { minLevel: "error" }],
    ["a level and context", ["--level", "warn", "-C", "1"], { minLevel: "warn", context: 1 }],
    ["either of two patterns", ["--grep", "ERROR", "--grep", "WARN"], { include: ["ERROR|WARN"] }],
    [
      "an include, an exclude, context",
      ["--grep", "ledger", "--exclude", "INFO", "-C", "2"],
      { include: ["ledger"], exclude: "INFO", context: 2 },
    ],
    [
      "two excludes and a level",
      ["--exclude", "heartbeat", "--exclude", "HTTP", "--level", "info"],
      { exclude: "heartbeat|HTTP", minLevel: "info" },
    ],
    [
      "one replica, a level, context",
      ["--replica", "2", "--level", "error", "-C", "1"],
      { hiddenReplicas: [1, 3], minLevel: "error", context: 1 },
    ],
    [
      "field queries, each must hold",
      ["--where", "level >= warn", "--where", "msg ~ fail or requestId = r1"],
      { where: ["level >= warn", "msg ~ fail or requestId = r1"] },
    ],
    [
      "a field query over key=value lines",
      ["--where", "attempt >= 2"],
      { where: ["attempt >= 2"] },
    ],
    [
      "a pattern in lower case (smart case)",
      ["--grep", "charge|settle"],
      { include: ["charge|settle"] },
    ],
  ];
  // Each case is its own run of tail over the same lines, independent of the others: at once.
  it.concurrent.each(cases)("%s", async (_name, flags, ui) => {
    const printed = await tailJson(flags);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.length).toBeLessThan(store.size());
    expect(printed).toEqual(dashboard(ui));
  });

  it("a pattern only a frame matches keeps its whole event in both: head, frames and all", async () => {
    const printed = await tailJson(["--grep", "fetchNonce"]);
    expect(printed.length).toBeGreaterThan(1);
    expect(printed[0]?.continues).toBeUndefined();
    expect(printed.slice(1).every((p) => p.continues === true)).toBe(true);
    expect(printed.some((p) => p.content.includes("fetchNonce"))).toBe(true);
    expect(printed).toEqual(dashboard({ include: ["fetchNonce"] }));
    const excluded = await tailJson(["--exclude", "fetchNonce"]);
    expect(excluded.some((p) => p.content === printed[0]?.content)).toBe(false);
    expect(excluded).toEqual(dashboard({ exclude: "fetchNonce" }));
  });

  it("in -o json a line continuing an event carries its level and continues: true", async () => {
    const all = await tailJson([]);
    const frames = all.filter((p) => p.continues === true);
    expect(frames.length).toBeGreaterThan(5);
    expect(frames.some((p) => p.content.startsWith("    at fetchNonce"))).toBe(true);
    // jq 'select(.level=="error")' keeps what --level error keeps.
    const errors = await tailJson(["--level", "error"]);
    expect(all.filter((p) => p.level === "error" || p.level === "fatal")).toEqual(errors);
  });
});
