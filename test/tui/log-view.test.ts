import { describe, expect, it } from "vitest";
import { LogStore } from "../../src/tail/log-store.js";
import { lit } from "../../src/text/safe-text.js";
import { displayWidth } from "../../src/text/terminal-width.js";
import {
  compileFilters,
  computeLogView,
  formatRows,
  MAX_RENDERED_CHARS,
} from "../../src/tui/log-view.js";
import type { Segment } from "../../src/tui/segment.js";
import { initialUiState, type UiState } from "../../src/tui/ui-state.js";
import { line } from "./fixtures.js";

const rowText = (segments: readonly Segment[]) => segments.map((s) => s.text).join("");
const state = (over: Partial<UiState> = {}): UiState => ({ ...initialUiState, ...over });

function storeWith(...contents: string[]): LogStore {
  const store = new LogStore({ maxLines: 1000, maxBytes: 256 * 1024 * 1024 });
  store.append(contents.map((c, i) => line(i, 1, c)));
  return store;
}

describe("long lines", () => {
  for (const [name, size] of [
    ["1 MB", 1_000_000],
    ["10 MB", 10_000_000],
  ] as const) {
    it(`a ${name} line wraps in bounded time and memory, producing only the visible rows`, () => {
      // Wrapping re-sliced the whole line for each row: 48 s for 1 MB, 10 MB froze the program.
      const big = `START ${"x".repeat(size)} END`;
      const store = storeWith("INFO before", big);
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      const view = computeLogView(store, state({ wrap: true }), 78, 20);
      const again = computeLogView(store, state({ wrap: true }), 78, 20);
      const elapsed = performance.now() - started;
      expect(elapsed).toBeLessThan(2000);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
      expect(view.rows).toHaveLength(20);
      expect(again.rows.map((r) => r.key)).toEqual(view.rows.map((r) => r.key));
      // The bottom of the line is on screen, and says how much of it is not rendered.
      const last = view.rows.map((r) => rowText(r.segments).slice(4)).join("");
      expect(last).toContain(
        `${(big.length - MAX_RENDERED_CHARS).toLocaleString("en-US")} more characters`,
      );
      expect(last).not.toContain("END");
      for (const r of view.rows) expect(displayWidth(rowText(r.segments))).toBeLessThanOrEqual(78);
    });
  }

  it("scrolled to the top of a huge wrapped line, its first rows show", () => {
    const big = `START ${"y".repeat(2_000_000)}`;
    const store = storeWith(big);
    const started = performance.now();
    const view = computeLogView(
      store,
      state({ wrap: true, following: false, pausedAtSize: 1, scroll: 5 }),
      78,
      10,
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(rowText(view.rows[0]?.segments ?? [])).toContain("START");
  });

  it("unwrapped, a long line is one row cut with an ellipsis", () => {
    const rows = formatRows(
      line(0, 2, `ERROR ${"z".repeat(500_000)}`),
      { timestamps: false, wrap: false },
      compileFilters(initialUiState),
      60,
    );
    expect(rows).toHaveLength(1);
    const text = rowText(rows[0] ?? []);
    expect(text.startsWith("[2] ERROR zzz")).toBe(true);
    expect(text.endsWith("…")).toBe(true);
    expect(displayWidth(text)).toBe(60);
  });

  it("search highlights stay inside the rendered part and never split a grapheme", () => {
    const rows = formatRows(
      line(0, 1, "e\u0301te e\u0301te 👩‍💻 te"),
      { timestamps: false, wrap: true },
      compileFilters({ ...initialUiState, search: "e" }),
      40,
    );
    const segments = rows[0] ?? [];
    for (const s of segments) expect(s.text.startsWith("\u0301")).toBe(false);
    expect(rowText(segments)).toBe("[1] e\u0301te e\u0301te 👩‍💻 te");
    expect(segments.some((s) => s.inverse)).toBe(true);
    expect(lit`x`).toBe("x");
  });
});
