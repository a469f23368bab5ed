import { describe, expect, it } from "vitest";
import { lit, safe } from "../../../src/text/safe-text.js";
import { detailRows } from "../../../src/tui/panes/detail-layout.js";
import { field } from "../../../src/tui/panes/detail-view.js";

const view = {
  title: lit`Email`,
  fields: [
    field(lit`event 2`, "DeliveryDelay"),
    field(safe("  deliveryDelayType"), "TransientCommunicationFailure"),
    field(lit`signature`, "5".repeat(200)),
  ],
};

const rowTexts = (width: number) =>
  detailRows(view, width).map((row) => row.map((s) => s.text).join(""));

describe("detailRows", () => {
  it("shows a label up to 24 columns whole at 80 columns (email's deliveryDelayType was cut)", () => {
    const rows = rowTexts(78);
    expect(
      rows.some((r) => r.startsWith("  deliveryDelayType  TransientCommunicationFailure")),
    ).toBe(true);
    expect(rows.join("")).not.toContain("…");
  });

  it("keeps the label column to 16 on a narrow pane, cutting the label, never the value", () => {
    const rows = rowTexts(40);
    expect(rows.some((r) => r.startsWith("  deliveryDelay…  Transient"))).toBe(true);
    // The 200-character signature is wrapped whole across rows.
    const signature = rows
      .filter((_r, i) => i >= rows.findIndex((x) => x.startsWith("signature")))
      .map((r) => r.slice(18))
      .join("");
    expect(signature).toBe("5".repeat(200));
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(40);
  });
});
