import { describe, expect, it } from "vitest";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { BINDINGS } from "../../../src/tui/keys/key-bindings.js";
import { computeLogView } from "../../../src/tui/log-view/log-view.js";
import type { Segment } from "../../../src/tui/rows/segment.js";
import { promptLine, statusLine } from "../../../src/tui/rows/status-line.js";
import {
  initialUiState,
  type UiAction,
  type UiState,
  uiReducer,
} from "../../../src/tui/state/ui-state.js";
import { line } from "../fixtures.js";

const run = (state: UiState, ...actions: UiAction[]) => actions.reduce(uiReducer, state);
const typed = (text: string): UiAction[] => [
  { type: "startInput", mode: "columns" },
  { type: "inputText", text },
  { type: "submitInput" },
];
const text = (segments: readonly Segment[]) => segments.map((s) => s.text).join("");

describe("the columns prompt (|)", () => {
  it("is one row of the key table, in the dashboard's keys", () => {
    const rows = BINDINGS.filter((b) => b.action === "columns");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.keys).toEqual(["|"]);
    expect(rows[0]?.scope).toBe("dashboard");
  });

  it("sets the fields on Enter, said in the status line; Esc turns them off; an empty list changes nothing", () => {
    const s = run(initialUiState, ...typed("time, level,msg"));
    expect(s.columns).toEqual(["time", "level", "msg"]);
    expect(s.input).toBeUndefined();
    const status = text(statusLine({ follower: undefined, ui: s, buffered: 10, cap: 100 }, 140));
    expect(status).toContain("columns time,level,msg");
    expect(run(s, { type: "cancel" }).columns).toBeUndefined();
    expect(run(s, { type: "setColumns", fields: undefined }).columns).toBeUndefined();
    expect(run(initialUiState, ...typed("  ")).columns).toBeUndefined();
  });

  it("keeps the prompt open with one line saying what to fix", () => {
    const s = run(initialUiState, ...typed("msg,,level"));
    expect(s.columns).toBeUndefined();
    expect(s.input?.error).toBe("field 2 is empty: separate field names by single commas");
    expect(text(promptLine({ mode: "columns", text: "msg" }, 100))).toContain("columns |");
  });

  it("shows the chosen fields as aligned columns in place of each line, an empty cell where one has none", () => {
    const store = new LogStore({ maxLines: 100, maxBytes: 1 << 20 });
    store.append([
      line(0, 1, '{"level":"info","msg":"signed","service":"signer","latencyMs":42}'),
      line(1, 2, "level=warn msg=slow latencyMs=812"),
      line(2, 1, "plain words"),
    ]);
    const ui = run(initialUiState, ...typed("service,latencyMs,msg"));
    const rows = computeLogView(store, ui, 100, 10).rows.map((r) => text(r.segments).slice(4));
    expect(rows).toEqual(["signer  42   signed", "        812  slow", "             plain words"]);
    const raw = computeLogView(store, initialUiState, 100, 10).rows.map((r) => text(r.segments));
    expect(raw[0]).toContain('{"level":"info","msg":"signed"');
  });
});
