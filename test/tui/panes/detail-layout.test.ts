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

describe("detailRows of decoded lines (a field that wraps at words)", () => {
  const payer = "2ab8uuRCdLq8KZY2W2jebHUErGyydsWbrCkXnQVP3Xrt";
  const decoded = {
    title: lit`Activity`,
    fields: [
      {
        label: lit`decoded`,
        lines: [
          safe(`fee payer   ${payer} (wallet account "Default wallet m/44'/501'/0'/0'")`),
          safe(
            "  destination  entry 0 of lookup table 9HSq1DdVTPdgKF5b4G1XW9v2GZmaiDhka3zdH5EBMK6F",
          ),
        ],
        wrap: "words" as const,
      },
    ],
  };
  const rows = (width: number) =>
    detailRows(decoded, width).map((row) => row.map((s) => s.text).join(""));

  it("at 80 columns an address is never cut across rows; a row goes on under its value", () => {
    const shown = rows(78);
    for (const r of shown) expect(r.length).toBeLessThanOrEqual(78);
    expect(shown.some((r) => r.includes(payer))).toBe(true);
    expect(shown.some((r) => r.includes("9HSq1DdVTPdgKF5b4G1XW9v2GZmaiDhka3zdH5EBMK6F"))).toBe(
      true,
    );
    // The continuation of the fee payer's line starts under its value, not at the label.
    const at = shown.findIndex((r) => r.includes(payer));
    expect(shown[at + 1]).toMatch(/^ {9}\s{12}\S/);
  });
});
