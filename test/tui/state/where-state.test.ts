import { describe, expect, it } from "vitest";
import { promptLine, statusLine } from "../../../src/tui/rows/status-line.js";
import {
  initialUiState,
  type UiAction,
  type UiState,
  uiReducer,
} from "../../../src/tui/state/ui-state.js";

const run = (state: UiState, ...actions: UiAction[]) => actions.reduce(uiReducer, state);
const typed = (text: string): UiAction[] => [
  { type: "startInput", mode: "where" },
  { type: "inputText", text },
  { type: "submitInput" },
];

describe("the field query prompt (=)", () => {
  it("adds a query on Enter, each = one more that must hold; the same one twice is one", () => {
    const s = run(initialUiState, ...typed("latencyMs > 300"), ...typed("service = signer"));
    expect(s.where).toEqual(["latencyMs > 300", "service = signer"]);
    expect(s.input).toBeUndefined();
    expect(run(s, ...typed(" latencyMs > 300 ")).where).toEqual(s.where);
    expect(run(s, ...typed("")).where).toEqual(s.where);
  });

  it("a malformed query keeps the prompt open with the line naming the token", () => {
    const s = run(initialUiState, ...typed("latencyMs >"));
    expect(s.where).toEqual([]);
    expect(s.input).toEqual({
      mode: "where",
      text: "latencyMs >",
      error: "expected a value, found the end of the query at column 12",
    });
    const prompt = promptLine({ mode: "where", text: "a = 1 b" }, 100)
      .map((x) => x.text)
      .join("");
    expect(prompt).toContain("where = ");
    expect(prompt).toContain('expected and, or or the end, found "b" at column 7');
  });

  it("is listed with the filters in the status line; Esc removes the last, X all", () => {
    const s = run(initialUiState, ...typed("level >= warn"), ...typed("msg ~ timeout"));
    const line = statusLine({ follower: undefined, ui: s, buffered: 10, cap: 100 }, 120)
      .map((x) => x.text)
      .join("");
    expect(line).toContain("=[level >= warn]");
    expect(line).toContain("=[msg ~ timeout]");
    expect(run(s, { type: "cancel" }).where).toEqual(["level >= warn"]);
    expect(run(s, { type: "cancel" }, { type: "cancel" }).where).toEqual([]);
    expect(run(s, { type: "clearFilters" }).where).toEqual([]);
  });
});
