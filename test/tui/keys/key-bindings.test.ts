import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { helpRows } from "../../../src/tui/keys/help-content.js";
import type { Binding, KeyInfo, Scope } from "../../../src/tui/keys/key-bindings.js";
import { BINDINGS, keyName, keyTableMarkdown } from "../../../src/tui/keys/key-bindings.js";
import type { KeyContext } from "../../../src/tui/keys/key-step.js";
import { keyStep, scopesFor } from "../../../src/tui/keys/key-step.js";
import { keysPageMarkdown } from "../../../src/tui/keys/keys-page.js";
import { logNavigator } from "../../../src/tui/log-view/log-navigator.js";
import type { UiState } from "../../../src/tui/state/ui-state.js";
import { initialUiState } from "../../../src/tui/state/ui-state.js";
import { line } from "../fixtures.js";

const README = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const KEYS_PAGE = readFileSync(new URL("../../../docs/keys.md", import.meta.url), "utf8");

/** The rows of the README's table of the keys that matter: `| key | does |` under "## Keys". */
function readmeKeyRows(): { label: string; does: string }[] {
  const section = README.split(/^## /m).find((s) => s.startsWith("Keys")) ?? "";
  return section
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| key ") && !l.startsWith("|---"))
    .map((l) => {
      const [label = "", does = ""] = l
        .slice(2, -2)
        .split(" | ")
        .map((c) => c.replaceAll("`", "").trim());
      return { label, does };
    });
}

/** The key press a key name stands for. */
function pressOf(name: string): { input: string; key: KeyInfo } {
  const special: Record<string, KeyInfo> = {
    up: { upArrow: true },
    down: { downArrow: true },
    pageup: { pageUp: true },
    pagedown: { pageDown: true },
    tab: { tab: true },
    escape: { escape: true },
    enter: { return: true },
    backspace: { backspace: true },
  };
  if (special[name]) return { input: "", key: special[name] as KeyInfo };
  if (name.startsWith("ctrl+")) return { input: name.slice(5), key: { ctrl: true } };
  if (name === "space") return { input: " ", key: {} };
  return { input: name, key: {} };
}

/** A state in which a binding's scope is the one that answers, set up so the key has work. */
function stateFor(b: Binding): UiState {
  const base: UiState = {
    ...initialUiState,
    search: "ERROR",
    inputError: undefined,
    following: false,
    pausedAtTotal: 300,
    anchor: { line: 150, rowsBelow: 0 },
    cursor: 141,
    marks: [100, 200],
    history: { search: ["x", "y", "z"] },
  };
  const by: Record<Scope, UiState> = {
    anywhere: base,
    dashboard: base,
    logs: base,
    lists: {
      ...base,
      focus: "activities",
      selection: {
        activities: { key: "b", name: "activity b", at: 1 },
        email: undefined,
        solana: undefined,
      },
    },
    // H and ! act in the overlay only when it is the heatmap, Enter and 1-9 in a log line's
    // detail; the other keys there, in any.
    overlay:
      b.action === "heatmap" || b.action === "errorRise"
        ? { ...base, heatmap: true, heatmapScroll: 2 }
        : b.action === "openMention" || b.action === "mention"
          ? { ...base, detail: { pane: "line", key: "141" } }
          : { ...base, help: true, helpScroll: 2 },
    input: { ...base, input: { mode: "search", text: "ab", recall: 1 } },
    vote: {
      ...base,
      focus: "activities",
      vote: {
        phase: "confirm",
        action: "approve",
        activityId: "a",
        fingerprint: "sha256:ab",
        question: "Approve this activity?",
        header: ["  you approve  X"],
        details: Array.from({ length: 30 }, (_, i) => `  intent ${i}`),
        scroll: 2,
      },
    },
    picker: base,
  };
  return by[b.scope];
}

const store = new LogStore();
store.append(
  Array.from({ length: 300 }, (_, i) => line(i, (i % 3) + 1, i % 7 ? `INFO ${i}` : `ERROR ${i}`)),
);
const ctx: KeyContext = {
  panes: ["logs", "activities", "email", "solana"],
  log: logNavigator(store, 100, 20),
  logRows: 20,
  pageRows: 10,
  overlayMax: 40,
  replicas: new Set([1, 2, 3]),
  lists: {
    activities: ["a", "b", "c"].map((key) => ({ key, name: `activity ${key}` })),
    email: [{ key: "m", name: "the email to m" }],
    solana: [{ key: "t", name: "the transfer t" }],
  },
  now: Date.UTC(2026, 0, 1),
  vote: { maxScroll: 10, page: 5, fits: true },
};

describe("the key table", () => {
  it("is docs/keys.md, row for row (npm run docs:keys writes it)", () => {
    expect(KEYS_PAGE).toContain(keyTableMarkdown());
    expect(KEYS_PAGE, "docs/keys.md is out of date: run npm run docs:keys").toBe(
      keysPageMarkdown(),
    );
  });

  it("has every key of the README's short table, bound on the dashboard", () => {
    const rows = readmeKeyRows();
    expect(rows.length).toBeGreaterThanOrEqual(10);
    const labels = new Set(BINDINGS.filter((b) => b.scope !== "picker").map((b) => b.label));
    for (const row of rows) expect(labels.has(row.label), row.label).toBe(true);
  });

  it("is the help: every binding's keys and description are listed", () => {
    const help = helpRows()
      .map((segments) => segments.map((s) => s.text).join(""))
      .join("\n");
    for (const b of BINDINGS)
      expect(help).toMatch(new RegExp(`${escapeRegex(b.label)} +${escapeRegex(b.does)}`));
  });

  it("drives the key handling: every key of every dashboard binding does something where it applies", () => {
    for (const b of BINDINGS.filter((x) => x.scope !== "picker")) {
      for (const name of b.keys) {
        const state = stateFor(b);
        expect(scopesFor(state)).toContain(b.scope);
        const { input, key } = pressOf(name);
        expect(keyName(input, key)).toBe(name);
        const result = keyStep(state, input, key, ctx);
        const didSomething = result.effects.length > 0 || result.state !== state;
        expect(didSomething, `${name} (${b.scope}: ${b.does})`).toBe(true);
      }
    }
  });

  it("binds a key once per scope", () => {
    const seen = new Set<string>();
    for (const b of BINDINGS) {
      for (const k of b.keys) {
        const id = `${b.scope}:${k}`;
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
    }
  });
});

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
