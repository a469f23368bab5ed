/**
 * Where each pane goes for a terminal size: the side panes beside the log from 120 columns,
 * below it from 60 (when there are rows enough), hidden when narrower. Every row and column of
 * the frame is given to exactly one pane: sizes add up to the frame, so borders meet.
 */
export interface Rect {
  width: number;
  height: number;
}

export type SidePane = "activities" | "email" | "solana";

/**
 * A bordered box as the layout gives it: its size on screen (`outer`) and what is left inside for
 * rows (`inner`). Components draw the frame at `outer` and lay their rows out in `inner`; nothing
 * else does frame arithmetic.
 */
export interface PaneBox {
  outer: Rect;
  inner: Rect;
}

/** A pane's box: a border all round and its title line below the top border. */
export function paneBox(outer: Rect): PaneBox {
  return {
    outer,
    inner: { width: Math.max(1, outer.width - 2), height: Math.max(0, outer.height - 3) },
  };
}

/**
 * An overlay's box (the help, a detail, the heatmap, a vote): a border and a column of padding
 * each side, and its heading line below the top border.
 */
export function overlayBox(outer: Rect): PaneBox {
  return {
    outer,
    inner: { width: Math.max(10, outer.width - 4), height: Math.max(1, outer.height - 3) },
  };
}

export interface Layout {
  /** The whole live area: never taller than rows - 1 (Ink redraws everything otherwise). */
  total: Rect;
  /** The panes' area: the total less the title and status lines. */
  body: Rect;
  logs: Rect;
  side: {
    arrangement: "column" | "row" | "hidden";
    panes: Record<SidePane, Rect>;
  };
  /** Each pane's box (the log's and the side panes'), and the overlays' over the body. */
  boxes: Record<"logs" | SidePane, PaneBox> & { overlay: PaneBox };
}

/** `total` split into `parts` sizes that add up to it, the larger ones first. */
export function split(total: number, parts: number): number[] {
  const base = Math.floor(total / parts);
  return Array.from({ length: parts }, (_, i) => base + (i < total - base * parts ? 1 : 0));
}

const NONE: Rect = { width: 0, height: 0 };

export function computeLayout(columns: number, rows: number, sidePanes: boolean): Layout {
  const layout = arrange(columns, rows, sidePanes);
  const { panes } = layout.side;
  return {
    ...layout,
    boxes: {
      logs: paneBox(layout.logs),
      activities: paneBox(panes.activities),
      email: paneBox(panes.email),
      solana: paneBox(panes.solana),
      overlay: overlayBox(layout.body),
    },
  };
}

function arrange(columns: number, rows: number, sidePanes: boolean): Omit<Layout, "boxes"> {
  const width = Math.max(20, columns);
  const height = Math.max(6, rows - 1);
  // One title line and one status line around the panes.
  const body = { width, height: height - 2 };
  const hidden = {
    total: { width, height },
    body,
    logs: body,
    side: {
      arrangement: "hidden" as const,
      panes: { activities: NONE, email: NONE, solana: NONE },
    },
  };
  if (!sidePanes || width < 60 || body.height < 12) return hidden;
  if (width >= 120) {
    const sideWidth = Math.min(64, Math.floor(width * 0.4));
    const [a, e, s] = split(body.height, 3) as [number, number, number];
    return {
      total: { width, height },
      body,
      logs: { width: width - sideWidth, height: body.height },
      side: {
        arrangement: "column",
        panes: {
          activities: { width: sideWidth, height: a },
          email: { width: sideWidth, height: e },
          solana: { width: sideWidth, height: s },
        },
      },
    };
  }
  const sideHeight = Math.max(6, Math.floor(body.height * 0.4));
  const [a, e, s] = split(width, 3) as [number, number, number];
  return {
    total: { width, height },
    body,
    logs: { width, height: body.height - sideHeight },
    side: {
      arrangement: "row",
      panes: {
        activities: { width: a, height: sideHeight },
        email: { width: e, height: sideHeight },
        solana: { width: s, height: sideHeight },
      },
    },
  };
}
