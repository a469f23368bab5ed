/** Where each pane goes for a terminal size: side panes beside, below, or hidden. */
export interface Rect {
  width: number;
  height: number;
}

export interface Layout {
  /** The whole live area: never taller than rows - 1 (Ink redraws everything otherwise). */
  total: Rect;
  logs: Rect;
  side: { arrangement: "column" | "row" | "hidden"; pane: Rect };
}

export function computeLayout(columns: number, rows: number, sidePanes: boolean): Layout {
  const width = Math.max(20, columns);
  const height = Math.max(6, rows - 1);
  // One title line and one status line around the panes.
  const body = height - 2;
  if (!sidePanes || width < 60 || body < 12) {
    return {
      total: { width, height },
      logs: { width, height: body },
      side: { arrangement: "hidden", pane: { width: 0, height: 0 } },
    };
  }
  if (width >= 120) {
    const sideWidth = Math.min(64, Math.floor(width * 0.4));
    const paneHeight = Math.floor(body / 3);
    return {
      total: { width, height },
      logs: { width: width - sideWidth, height: body },
      side: { arrangement: "column", pane: { width: sideWidth, height: paneHeight } },
    };
  }
  const sideHeight = Math.max(6, Math.floor(body * 0.4));
  return {
    total: { width, height },
    logs: { width, height: body - sideHeight },
    side: { arrangement: "row", pane: { width: Math.floor(width / 3), height: sideHeight } },
  };
}
