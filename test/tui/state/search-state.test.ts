import { describe, expect, it } from "vitest";
import {
  initialUiState,
  regexError,
  type UiAction,
  type UiState,
  uiReducer,
} from "../../../src/tui/state/ui-state.js";

const run = (state: UiState, ...actions: UiAction[]) => actions.reduce(uiReducer, state);
const typed = (mode: "search" | "include", text: string): UiAction[] => [
  { type: "startInput", mode },
  { type: "inputText", text },
  { type: "submitInput" },
];

describe("the search state", () => {
  it("a new search forgets where the last one's counter was", () => {
    const s = run(
      { ...initialUiState, search: "a", matchPosition: { index: 3, total: 45 } },
      ...typed("search", "b"),
    );
    expect(s).toMatchObject({ search: "b", matchPosition: undefined, input: undefined });
  });

  it("an invalid pattern keeps the prompt open with the reason, and changes nothing", () => {
    const s = run({ ...initialUiState, search: "ok" }, ...typed("search", "a(b"));
    expect(s.search).toBe("ok");
    expect(s.input).toEqual({
      mode: "search",
      text: "a(b",
      error: "invalid regex: missing closing ): `a(b`",
    });
    expect(regexError("[z-a]")).toBe("invalid regex: invalid character class range: `z-a`");
    expect(regexError("x(?=y)")).toBe(
      "regex refused: lookahead ((?=) is JavaScript-only (patterns are RE2: linear time)",
    );
    expect(regexError("fine|good")).toBeUndefined();
    // Typing on clears the reason.
    expect(uiReducer(s, { type: "inputBackspace" }).input).toEqual({ mode: "search", text: "a(" });
  });

  it("remembers patterns per prompt, newest last, without repeats, and recalls within bounds", () => {
    let s = run(
      initialUiState,
      ...typed("search", "x"),
      ...typed("search", "y"),
      ...typed("search", "x"),
    );
    s = run(s, ...typed("include", "f"));
    expect(s.history).toEqual({ search: ["y", "x"], include: ["f"] });
    s = run(s, { type: "startInput", mode: "search" }, { type: "recall", by: -1 });
    expect(s.input?.text).toBe("x");
    s = run(s, { type: "recall", by: -1 }, { type: "recall", by: -1 });
    expect(s.input?.text).toBe("y");
    s = run(s, { type: "recall", by: 1 }, { type: "recall", by: 1 }, { type: "recall", by: 1 });
    expect(s.input?.text).toBe("");
    // Cancelled or empty prompts are not remembered.
    s = run(s, { type: "cancel" }, ...typed("search", ""));
    expect(s.history.search).toEqual(["y", "x"]);
    const many = Array.from({ length: 60 }, (_, i) => typed("search", `p${i}`)).flat();
    expect(run(initialUiState, ...many).history.search).toHaveLength(50);
  });

  it("following again drops the cursor and the counter; moving sets them", () => {
    const moved = uiReducer(initialUiState, {
      type: "moveTo",
      anchor: { line: 10, rowsBelow: 0 },
      total: 100,
      cursor: 11,
      match: { index: 2, total: 5 },
    });
    expect(moved).toMatchObject({
      following: false,
      pausedAtTotal: 100,
      cursor: 11,
      matchPosition: { index: 2, total: 5 },
    });
    expect(uiReducer(moved, { type: "follow" })).toMatchObject({
      following: true,
      cursor: undefined,
      matchPosition: undefined,
    });
  });
});
