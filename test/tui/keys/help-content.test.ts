/**
 * The help as it reads at 80 columns: descriptions wrapped under themselves instead of cut, every
 * word of the key table's description still there; and `/` in the help, which lists only the keys
 * and marks it finds, typed live, kept by Enter, undone by Esc.
 */
import { describe, expect, it } from "vitest";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { safe } from "../../../src/text/safe-text.js";
import { displayWidth } from "../../../src/text/terminal-width.js";
import { helpRows, wrapWords } from "../../../src/tui/keys/help-content.js";
import { BINDINGS } from "../../../src/tui/keys/key-bindings.js";
import type { KeyContext } from "../../../src/tui/keys/key-step.js";
import { keyStep } from "../../../src/tui/keys/key-step.js";
import { logNavigator } from "../../../src/tui/log-view/log-navigator.js";
import { initialUiState, type UiState } from "../../../src/tui/state/ui-state.js";

const lines = (rows: ReturnType<typeof helpRows>) =>
  rows.map((segments) => segments.map((s) => String(s.text)).join(""));

describe("the help at 80 columns", () => {
  // The overlay's inside at 80 columns: its border and padding take 4.
  const rows = lines(helpRows(76));

  it("wraps each description under itself, none cut, every word of the table kept", () => {
    for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(76);
    expect(rows.join("\n")).not.toContain("…\n");
    const search = BINDINGS.find((b) => b.action === "search" && b.scope === "dashboard");
    const at = rows.findIndex((r) => r.startsWith("/ "));
    // Its rows: the key's, then those under it indented to the description's column.
    const own = [rows[at] ?? ""];
    for (const r of rows.slice(at + 1)) {
      if (!r.startsWith(" ".repeat(18))) break;
      own.push(r);
    }
    expect(own.length).toBeGreaterThan(1);
    expect(own.map((r) => r.slice(18).trim()).join(" ")).toBe(search?.does);
  });

  it("cuts a word longer than a row, and nothing else", () => {
    expect(wrapWords(safe("a bb ccc"), 100)).toEqual(["a bb ccc"]);
    expect(wrapWords(safe("aaaa bbbb cccc"), 9)).toEqual(["aaaa bbbb", "cccc"]);
    expect(wrapWords(safe(`x ${"y".repeat(20)} z`), 8)).toEqual([
      "x",
      "yyyyyyyy",
      "yyyyyyyy",
      "yyyy z",
    ]);
  });
});

describe("/ in the help", () => {
  it("finds a key exactly, marks by their sign, words of two letters or more in any case", () => {
    // Headings (one segment) whole; an entry (key column, description) by its key, once.
    const found = (q: string) =>
      helpRows(76, q)
        .filter((segments) => String(segments[0]?.text ?? "").trim() !== "")
        .map((segments) => String(segments[0]?.text).trim());
    expect(found("o")).toEqual(["dashboard", "o"]);
    expect(found("N")).toEqual(["dashboard", "N"]);
    const bang = found("!");
    expect(bang).toContain("!");
    expect(bang).toContain("[1]▂▅!█");
    expect(bang).toContain("! a rise");
    expect(bang).not.toContain("o");
    expect(found("Ctrl-W")).toEqual(["dashboard", "Ctrl-W"]);
    const replica = found("REPLICA");
    expect(replica).toContain("1-9");
    expect(replica).toContain("o");
    expect(replica).toContain("X");
    expect(replica).not.toContain("q, Ctrl-C");
    expect(lines(helpRows(76, "xyzzy"))).toEqual([
      'nothing in the help matches "xyzzy": / finds another, Esc shows it all',
    ]);
  });

  const store = new LogStore();
  const ctx: KeyContext = {
    panes: ["logs"],
    log: logNavigator(store, 80, 20),
    logRows: 20,
    pageRows: 10,
    overlayMax: 100,
    replicas: new Set(),
    lists: { activities: [], email: [], solana: [] },
    now: 0,
  };
  const press = (state: UiState, ...keys: string[]) =>
    keys.reduce(
      (s, k) =>
        k === "Esc"
          ? keyStep(s, "", { escape: true }, ctx).state
          : k === "Enter"
            ? keyStep(s, "", { return: true }, ctx).state
            : keyStep(s, k, {}, ctx).state,
      state,
    );

  it("is a prompt like the others: typed live, Enter keeps it, Esc undoes one thing at a time", () => {
    const typing = press(initialUiState, "?", "/", "r", "e", "p");
    expect(typing).toMatchObject({ help: true, input: { mode: "helpFind", text: "rep" } });
    // Esc while typing: the prompt closes, the help stays as it was.
    expect(press(typing, "Esc")).toMatchObject({
      help: true,
      input: undefined,
      helpFind: undefined,
    });
    const kept = press(typing, "Enter");
    expect(kept).toMatchObject({ help: true, input: undefined, helpFind: "rep", helpScroll: 0 });
    // Esc: the whole help again, then Esc closes it.
    const all = press(kept, "Esc");
    expect(all).toMatchObject({ help: true, helpFind: undefined });
    expect(press(all, "Esc").help).toBe(false);
    // ? closes it, and the next ? opens it whole.
    expect(press(kept, "?", "?").helpFind).toBeUndefined();
  });

  it("outside the help, / in a detail view says where it finds", () => {
    const detail = { ...initialUiState, detail: { pane: "follow" as const, key: "" } };
    expect(press(detail, "/").notice).toMatch(/^\/ finds in the help/);
  });
});
