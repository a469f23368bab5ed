import { memo } from "react";
import { grouped } from "../../text/grouped-number.js";
import { lit, type Safe, safe } from "../../text/safe-text.js";
import type { LogPaneView } from "../controller/dashboard-views.js";
import type { LogView } from "../log-view/log-view.js";
import { PaneFrame } from "./pane-frame.js";
import { Line, SafeText } from "./safe-text.js";

const count = (n: number) => safe(grouped(n));

/** The line under a paused view: how many lines came since, and whether the buffer kept them. */
export function pausedMarker(view: LogView, cap: number): Safe {
  if (view.moved) {
    return lit`⏸ the lines you paused on left the buffer (it keeps ${count(cap)}): the oldest kept are shown · Space follows`;
  }
  if (view.newWhilePaused === 0) return lit`⏸ paused · no new lines yet · Space follows`;
  const kept =
    view.newKept < view.newWhilePaused ? lit`, the newest ${count(view.newKept)} kept` : lit``;
  return lit`⏸ ${count(view.newWhilePaused)} new line${view.newWhilePaused === 1 ? lit`` : lit`s`}${kept} · Space follows`;
}

export const LogPane = memo(function LogPane(props: LogPaneView) {
  const marker = props.following ? undefined : pausedMarker(props.view, props.cap);
  const shown = props.view.rows;
  return (
    <PaneFrame title={props.title} right={props.right} box={props.box} focused={props.focused}>
      {props.strip && props.strip.length > 0 ? <Line segments={props.strip} /> : null}
      {props.view.empty ? (
        <SafeText dim wrap="wrap">
          {props.view.empty}
        </SafeText>
      ) : null}
      {shown.map((row) => (
        <Line key={row.key} segments={row.segments} />
      ))}
      {marker ? (
        <SafeText colour="black" background="yellow">
          {marker}
        </SafeText>
      ) : null}
    </PaneFrame>
  );
});
