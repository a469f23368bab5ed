/**
 * The deployment picker's pure state (issue #28): over a running dashboard it starts on what the
 * dashboard shows, Esc goes back to it, and picking the scope shown (or the one deployment shown
 * alone) resumes it while any other deployment starts afresh; the selection is by identity.
 */
import { describe, expect, it } from "vitest";
import type { TvcApp, TvcDeployment } from "../../../src/api/schemas.js";
import { deploymentChoice } from "../../../src/feeds/deployment-list.js";
import {
  initialPicker,
  pickerRows,
  pickerSelection,
  pickerStep,
  pickOutcome,
  type ShownScope,
} from "../../../src/tui/state/picker-state.js";

const app = { id: "app-1", organizationId: "o", name: "payments-signer" } as TvcApp;
const dep = (id: string, debugMode = true) =>
  ({ id, organizationId: "o", appId: "app-1", debugMode }) as TvcDeployment;
const A = deploymentChoice(app, dep("dep-aaaa"));
const B = deploymentChoice(app, dep("dep-bbbb"));
const C = deploymentChoice(app, dep("dep-cccc", false));

const over = { over: true, failed: false };
const atStart = { over: false, failed: false };

describe("the picker over a running dashboard", () => {
  const shown: ShownScope = { ids: ["dep-aaaa"] };

  it("starts on the scope shown; Enter on it, or on the deployment shown alone, resumes", () => {
    const rows = pickerRows([A, B, C], shown);
    expect(rows.map((r) => r.key)).toEqual(["shown", "dep-aaaa", "dep-bbbb", "dep-cccc"]);
    expect(rows[1]).toMatchObject({ kind: "deployment", shownNow: true });
    const state = initialPicker(true);
    expect(pickerSelection(state, rows)).toBe(0);
    const enter = pickerStep(state, "pick", rows, over);
    expect(enter.effect).toEqual({ type: "pick", row: rows[0] });
    expect(pickOutcome(shown, rows[0] ?? (undefined as never))).toEqual({ type: "resume" });
    const down = pickerStep(state, "down", rows, over).state;
    const same = pickerStep(down, "pick", rows, over).effect;
    expect(same?.type === "pick" && pickOutcome(shown, same.row)).toEqual({ type: "resume" });
  });

  it("another deployment is watched afresh; one that cannot be tailed says why", () => {
    const rows = pickerRows([A, B, C], shown);
    let state = initialPicker(true);
    state = pickerStep(state, "down", rows, over).state;
    state = pickerStep(state, "down", rows, over).state;
    const pick = pickerStep(state, "pick", rows, over).effect;
    expect(pick?.type === "pick" && pickOutcome(shown, pick.row)).toEqual({
      type: "watch",
      choice: B,
    });
    state = pickerStep(state, "down", rows, over).state;
    const refused = pickerStep(state, "pick", rows, over);
    expect(refused.effect).toBeUndefined();
    expect(refused.state.note).toBe(
      "that one cannot be tailed (not in debug mode): pick one marked ●",
    );
  });

  it("Esc goes back to the dashboard; at start Esc quits, as q does", () => {
    const rows = pickerRows([A], shown);
    expect(pickerStep(initialPicker(true), "cancel", rows, over).effect).toEqual({ type: "back" });
    expect(
      pickerStep(initialPicker(false), "cancel", pickerRows([A], undefined), atStart).effect,
    ).toEqual({
      type: "quit",
    });
    expect(pickerStep(initialPicker(true), "quit", rows, over).effect).toEqual({ type: "quit" });
  });

  it("--app or --all: the scope's row resumes; each of its deployments alone is another scope", () => {
    const scope: ShownScope = {
      ids: ["dep-aaaa", "dep-bbbb"],
      watchLabel: "--app payments-signer",
    };
    const rows = pickerRows([A, B], scope);
    expect(rows[0]).toMatchObject({ kind: "shown" });
    expect(String(rows[0]?.kind === "shown" && rows[0].label)).toBe(
      "--app payments-signer (every debug-mode deployment it lists)",
    );
    expect(rows.slice(1).every((r) => r.kind === "deployment" && !r.shownNow)).toBe(true);
    expect(pickOutcome(scope, rows[0] ?? (undefined as never))).toEqual({ type: "resume" });
    expect(pickOutcome(scope, rows[1] ?? (undefined as never))).toEqual({
      type: "watch",
      choice: A,
    });
  });

  it("keeps its selection on a deployment when a reload adds one above it", () => {
    const before = pickerRows([B, C], undefined);
    let state = initialPicker(false);
    expect(pickerSelection(state, before)).toBe(0);
    state = pickerStep(state, "down", before, atStart).state;
    expect(pickerSelection(state, before)).toBe(1);
    const after = pickerRows([A, B, C], undefined);
    expect(pickerSelection(state, after)).toBe(2);
    // One that left the list is said to be gone, and nothing is watched in its place.
    const gone = pickerStep(state, "pick", pickerRows([A, B], undefined), atStart);
    expect(gone.effect).toBeUndefined();
    expect(gone.state.note).toBe(
      "deployment dep-cccc is no longer in the list: nothing to watch; ↑ ↓ select another",
    );
  });

  it("r reloads only after a failed load", () => {
    const rows = pickerRows([], undefined);
    expect(pickerStep(initialPicker(false), "retry", rows, atStart).effect).toBeUndefined();
    expect(
      pickerStep(initialPicker(false), "retry", rows, { over: false, failed: true }).effect,
    ).toEqual({ type: "retry" });
  });
});
