import { describe, expect, it } from "vitest";
import { lit } from "../../../src/text/safe-text.js";
import { displayWidth } from "../../../src/text/terminal-width.js";
import { activityColumns } from "../../../src/tui/components/activities-pane.js";
import { pickerColumns } from "../../../src/tui/components/deployment-picker.js";
import { emailColumns } from "../../../src/tui/components/email-pane.js";
import { solanaColumns } from "../../../src/tui/components/solana-pane.js";
import { fitItems, planColumns } from "../../../src/tui/panes/columns.js";
import { computeLayout, split } from "../../../src/tui/panes/layout.js";

describe("the layout", () => {
  it("hands each pane the box inside its frame, and the overlays theirs inside border and padding", () => {
    for (const [columns, rows] of [
      [80, 24],
      [160, 48],
    ] as const) {
      const l = computeLayout(columns, rows, true);
      for (const pane of ["logs", "activities", "email", "solana"] as const) {
        const { outer, inner } = l.boxes[pane];
        expect(outer).toEqual(pane === "logs" ? l.logs : l.side.panes[pane]);
        // A border all round, and the title line below the top border.
        expect(inner).toEqual({ width: outer.width - 2, height: outer.height - 3 });
      }
      expect(l.boxes.overlay.outer).toEqual(l.body);
      expect(l.boxes.overlay.inner).toEqual({ width: columns - 4, height: l.body.height - 3 });
    }
  });

  it("is never taller than rows - 1, and gives every row and column of the body to one pane", () => {
    for (const [columns, rows] of [
      [80, 24],
      [120, 40],
      [160, 48],
      [200, 60],
      [121, 37],
      [97, 25],
    ] as const) {
      const l = computeLayout(columns, rows, true);
      expect(l.total.height).toBe(rows - 1);
      expect(l.body.height).toBe(rows - 3);
      const { activities: a, email: e, solana: s } = l.side.panes;
      if (l.side.arrangement === "column") {
        expect(a.height + e.height + s.height).toBe(l.body.height);
        expect(l.logs.width + a.width).toBe(columns);
        expect(l.logs.height).toBe(l.body.height);
      } else {
        expect(l.side.arrangement).toBe("row");
        expect(a.width + e.width + s.width).toBe(columns);
        expect(l.logs.height + a.height).toBe(l.body.height);
      }
    }
  });

  it("puts side panes beside the log from 120 columns, below from 60, hidden narrower or when off", () => {
    expect(computeLayout(120, 40, true).side.arrangement).toBe("column");
    expect(computeLayout(119, 40, true).side.arrangement).toBe("row");
    expect(computeLayout(60, 24, true).side.arrangement).toBe("row");
    expect(computeLayout(59, 24, true).side.arrangement).toBe("hidden");
    expect(computeLayout(80, 14, true).side.arrangement).toBe("hidden");
    expect(computeLayout(160, 48, false).side.arrangement).toBe("hidden");
    expect(computeLayout(160, 48, false).logs).toEqual({ width: 160, height: 45 });
  });

  it("splits sizes that add up, larger parts first", () => {
    expect(split(80, 3)).toEqual([27, 27, 26]);
    expect(split(45, 3)).toEqual([15, 15, 15]);
    expect(split(46, 3)).toEqual([16, 15, 15]);
  });
});

describe("columns", () => {
  it("give way in the pane's order and always add up to the width", () => {
    for (const [plan, min] of [
      [activityColumns, 21],
      [emailColumns, 21],
      [solanaColumns, 24],
      [pickerColumns, 59],
    ] as const) {
      for (let inner = min; inner <= 120; inner++) {
        const widths = Object.values(plan(inner).widths) as number[];
        expect(widths.reduce((a, b) => a + b, 0) + widths.length - 1).toBe(inner);
      }
    }
    // Wide: every column; narrower: votes go, then the status shortens, then the age; the id stays.
    expect(Object.keys(activityColumns(60).widths).sort()).toEqual([
      "age",
      "id",
      "status",
      "type",
      "votes",
    ]);
    expect(activityColumns(30).widths).toMatchObject({ status: 4, age: 4 });
    expect(activityColumns(30).widths.votes).toBeUndefined();
    expect(activityColumns(18).widths.age).toBeUndefined();
    expect(activityColumns(25).widths).toMatchObject({ status: 4, id: 8, type: 11 });
    expect(activityColumns(25, 10).widths).toMatchObject({ id: 10, type: 9 });
    expect(solanaColumns(46).widths).toMatchObject({ dir: 3, amount: 22 });
    expect(planColumns([{ id: "a", forms: [5, 0] }], "b", 10, 12, ["a"]).widths).toEqual({ b: 12 });
  });

  it("fit items with a count of what is left out", () => {
    const items = [lit`consensus 10`, lit`failed 9`, lit`pending 1`, lit`completed 79`];
    expect(fitItems(items, 80)).toEqual({ shown: items, more: undefined });
    const fitted = fitItems(items, 40);
    expect(fitted.shown).toEqual([lit`consensus 10`, lit`failed 9`]);
    expect(fitted.more).toBe("+2 more");
    expect(displayWidth([...fitted.shown, fitted.more].join(" · "))).toBeLessThanOrEqual(40);
    expect(fitItems(items, 5)).toEqual({ shown: [lit`consensus 10`], more: "+3 more" });
  });
});
