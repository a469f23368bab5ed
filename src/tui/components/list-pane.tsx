import type { ReactElement } from "react";
import { lit, type Safe, widthOf } from "../../text/safe-text.js";
import type { PaneBox } from "../panes/layout.js";
import { followedTime, type NearTime, type PaneClock } from "../panes/pane-clock.js";
import { visibleWindow } from "../panes/visible-window.js";
import type { PaneSelection } from "../state/list-selection.js";
import { FeedError } from "./feed-error.js";
import { GoneLine } from "./gone-line.js";
import { PaneFrame } from "./pane-frame.js";
import { SafeText } from "./safe-text.js";

/**
 * A side pane's list: the frame at the layout's box, the feed's error line, the pane's own lines
 * above the list (counts, a header), the gone line while focused, then the records that fit the
 * rows left, kept around the selection. The activities, email and Solana panes are this with
 * their own lines and rows; the arithmetic of what fits is here once.
 */
export function ListPane<T>(props: {
  box: PaneBox;
  title: Safe;
  right: Safe | undefined;
  focused: boolean;
  /** The feed's last error, said on the pane's first line while its last data stays below. */
  error: string | undefined;
  /** The pane's own lines above the list, each one row and keyed. */
  above: readonly ReactElement[];
  /** A line below the others when the list is empty and there is something to say about it. */
  empty?: Safe | undefined;
  items: readonly T[];
  /** Rows each record takes (email: its outcome and its timeline). */
  rowsPerItem?: number;
  selection: PaneSelection;
  /** The panes' clock: the title says the time it follows. */
  clock: PaneClock;
  /** The records nearest the time followed. */
  near: NearTime | undefined;
  /** The row the window is kept around (the views choose: the selection or the nearest). */
  anchor: number;
  /**
   * A record's rows, keyed; `selected` when it is the focused pane's selection, `marked` when it
   * is among the nearest the time followed.
   */
  row: (item: T, selected: boolean, marked: boolean) => ReactElement | ReactElement[];
}) {
  const gone = props.focused ? props.selection.gone : undefined;
  const fixed = props.above.length + (props.error ? 1 : 0) + (gone ? 1 : 0);
  const listRows = Math.max(0, props.box.inner.height - fixed);
  const { first, items } = visibleWindow(
    props.items,
    props.anchor,
    Math.floor(listRows / (props.rowsPerItem ?? 1)),
  );
  const title = lit`${props.title}${followedTime(props.clock)}`;
  // The time followed is what the title is for: in a narrow pane the feed's state gives way.
  const crowded =
    props.clock.at !== undefined &&
    props.right !== undefined &&
    widthOf(title) + 1 + widthOf(props.right) > props.box.inner.width;
  return (
    <PaneFrame
      title={title}
      right={crowded ? undefined : props.right}
      box={props.box}
      focused={props.focused}
    >
      <FeedError error={props.error} />
      {props.above}
      {gone ? <GoneLine name={gone} /> : null}
      {props.empty && props.items.length === 0 ? <SafeText dim>{props.empty}</SafeText> : null}
      {items.flatMap((item, i) =>
        props.row(
          item,
          props.focused && first + i === props.selection.index,
          props.near?.marked.has(first + i) ?? false,
        ),
      )}
    </PaneFrame>
  );
}

/** A side pane that has nothing to list (its feed is not configured): the frame and why. */
export function NoticePane(props: { box: PaneBox; title: Safe; focused: boolean; children: Safe }) {
  return (
    <PaneFrame title={props.title} box={props.box} focused={props.focused}>
      <SafeText dim wrap="wrap">
        {props.children}
      </SafeText>
    </PaneFrame>
  );
}
