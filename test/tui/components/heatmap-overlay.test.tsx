/**
 * The error heatmap drawn (`H`), without colours (NO_COLOR): what each cell means must read from
 * its character alone. At 80x24 and 160x48, scrolled when it does not fit, and `!` from it.
 */
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { LogLine } from "../../../src/logs/model/log-line.js";
import { lit, safe } from "../../../src/text/safe-text.js";
import { HeatmapOverlay } from "../../../src/tui/components/heatmap-overlay.js";
import { ColourContext } from "../../../src/tui/components/safe-text.js";
import { overlayBox } from "../../../src/tui/panes/layout.js";
import { NOW } from "../fixtures.js";
import { renderDashboard } from "../render-dashboard.js";

const T0 = NOW - 300_000 - (NOW % 20_000);

/** 12 buckets of 20 s, 2 errors a bucket per replica; 20 more of replica 3 in bucket 8. */
function lines(): LogLine[] {
  const out: LogLine[] = [];
  const at = (ms: number, r: number, content: string): LogLine => ({
    kind: "line",
    replicaLabel: `replica ${r}/3`,
    seconds: String(Math.floor(ms / 1000)),
    nanos: (ms % 1000) * 1e6,
    sortKey: ms,
    content,
    late: false,
  });
  for (let b = 0; b < 12; b++) {
    for (let r = 1; r <= 3; r++) {
      const from = T0 + b * 20_000 + r * 100;
      for (let k = 0; k < 6; k++)
        out.push(
          at(from + k * 3000, r, k < 2 ? `ERROR usual ${r}:${b}.${k}` : `INFO ok ${r}:${b}.${k}`),
        );
      if (b === 8 && r === 3)
        for (let k = 0; k < 20; k++) out.push(at(from + 500 + k * 700, r, `ERROR storm ${k}`));
    }
  }
  return out.sort((a, b) => a.sortKey - b.sortKey);
}

describe("the error heatmap overlay", () => {
  for (const [columns, rows] of [
    [80, 24],
    [160, 48],
  ] as const) {
    it(`draws a row per replica in characters alone at ${columns}x${rows}, and ! goes to the rise`, async () => {
      const d = await renderDashboard({
        lines: lines(),
        size: { columns, rows },
        colour: false,
        feeds: null,
      });
      await d.type("H");
      const frame = d.frame();
      const shown = frame.split("\n");
      expect(shown.length).toBeLessThanOrEqual(rows);
      for (const l of shown) expect(l.length).toBeLessThanOrEqual(columns);
      expect(frame).toContain("errors per replica");
      expect(frame).toContain("Esc or H closes");
      const row = (name: string) => shown.find((l) => l.includes(`│ ${name} `)) ?? "";
      // 12 buckets of 20 s, each drawn 3 cells wide (there is room): replica 3 rose in the 9th.
      expect(row("replica 1")).toMatch(/│ replica 1 +░{36} 24 +│/);
      expect(row("replica 3")).toMatch(/│ replica 3 +░{24}█{3}░{9} 44 +│/);
      const rise = shown.findIndex((l) => l.includes("▲"));
      expect(rise).toBeGreaterThan(shown.indexOf(row("replica 3")));
      expect(shown[rise]?.indexOf("▲")).toBe(row("replica 3").indexOf("█") + 1);
      expect(frame).toContain("errors first rose on");
      expect(frame).toMatch(/░ up to its\s/);
      await d.type("!");
      const after = d.frame();
      expect(after).not.toContain("errors per replica");
      // The cursor (>) on replica 3's first error of a message new to it in that bucket (the
      // storm), not on its usual error that opens the bucket; the status line says the rule.
      expect(after).toMatch(/\[3\]> ?ERROR storm 0\b/);
      expect(after).not.toMatch(/\[3\]> ?ERROR usual/);
      expect(after).toContain("replica 3: first message new to it");
      d.unmount();
    });
  }

  it("draws only the rows that fit, from where it is scrolled", () => {
    const rows = Array.from({ length: 40 }, (_, i) => [{ text: safe(`row ${i + 1}`) }]);
    const draw = (scroll: number) =>
      render(
        <ColourContext.Provider value={false}>
          <HeatmapOverlay
            title={lit`errors per replica`}
            rows={rows}
            box={overlayBox({ width: 60, height: 10 })}
            scroll={scroll}
          />
        </ColourContext.Provider>,
      );
    const top = draw(0);
    expect(top.lastFrame()).toContain("↑↓ 1-7 of 40");
    expect(top.lastFrame()).toMatch(/row 7\b/);
    expect(top.lastFrame()).not.toMatch(/row 8\b/);
    top.unmount();
    const scrolled = draw(35);
    // Never past the last screenful.
    expect(scrolled.lastFrame()).toContain("↑↓ 34-40 of 40");
    expect(scrolled.lastFrame()).toMatch(/row 40\b/);
    expect(scrolled.lastFrame()).not.toMatch(/row 33\b/);
    scrolled.unmount();
  });
});
