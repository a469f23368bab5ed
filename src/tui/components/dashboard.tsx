import { Box, useInput } from "ink";
import type { ReactNode } from "react";
import { useCallback, useSyncExternalStore } from "react";
import { lit } from "../../text/safe-text.js";
import type { DashboardController } from "../controller/dashboard-controller.js";
import type { DashboardBody, LogPaneView, SidePanesView } from "../controller/dashboard-views.js";
import type { Layout } from "../panes/layout.js";
import { ActivitiesPane } from "./activities-pane.js";
import { CopyView } from "./copy-view.js";
import { DetailPane } from "./detail-pane.js";
import { EmailPane } from "./email-pane.js";
import { HeatmapOverlay } from "./heatmap-overlay.js";
import { HelpOverlay } from "./help-overlay.js";
import { LogPane } from "./log-pane.js";
import { ColourContext, Line, SafeText } from "./safe-text.js";
import { SolanaPane } from "./solana-pane.js";
import { useTerminalResize } from "./use-terminal-resize.js";
import { VoteOverlay } from "./vote-overlay.js";

const GONE = lit`(no longer in the loaded list)`;

/**
 * The dashboard on its own (and in tests): the controller's snapshot drawn, the terminal's
 * size and keys handed to the controller.
 */
export function Dashboard(props: { controller: DashboardController; colour?: boolean }) {
  const { controller } = props;
  useTerminalResize(controller);
  // One handler for the controller's life: Ink subscribes to input again when it changes.
  const press = useCallback<Parameters<typeof useInput>[0]>(
    (input, key) => controller.press(input, key),
    [controller],
  );
  useInput(press);
  return <DashboardScreen controller={controller} colour={props.colour} />;
}

/**
 * The title, the body and the status line as the controller's snapshot has them; `over` is
 * drawn in the body's place (the picker over the dashboard: the title and status stay).
 */
export function DashboardScreen(props: {
  controller: DashboardController;
  colour?: boolean | undefined;
  over?: ((width: number, rows: number) => ReactNode) | undefined;
}) {
  const { controller } = props;
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const { layout } = snapshot;
  const { width, height } = layout.total;
  const bodyHeight = layout.body.height;
  return (
    <ColourContext.Provider value={props.colour ?? true}>
      <Box flexDirection="column" width={width} height={height} overflowY="hidden">
        <SafeText bold>{snapshot.title}</SafeText>
        {props.over ? (
          <Box height={bodyHeight} width={width} overflowY="hidden">
            {props.over(width, bodyHeight)}
          </Box>
        ) : (
          <Body body={snapshot.body} layout={layout} />
        )}
        <Line segments={snapshot.status} />
      </Box>
    </ColourContext.Provider>
  );
}

/**
 * The innermost thing open: the vote, the help, the error heatmap, a line to copy, a detail; else
 * the panes.
 */
function Body(props: { body: DashboardBody; layout: Layout }) {
  const { body, layout } = props;
  const box = layout.boxes.overlay;
  switch (body.kind) {
    case "vote":
      return <VoteOverlay vote={body.vote} frame={body.frame} box={box} />;
    case "help":
      return <HelpOverlay box={box} scroll={body.scroll} rows={body.rows} find={body.find} />;
    case "heatmap":
      return <HeatmapOverlay title={body.title} rows={body.rows} box={box} scroll={body.scroll} />;
    case "copy":
      return <CopyView lines={body.lines} width={layout.body.width} height={layout.body.height} />;
    case "detail":
      return <DetailPane view={body.view} gone={GONE} box={box} scroll={body.scroll} />;
    case "panes":
      return <Panes log={body.log} side={body.side} height={layout.body.height} />;
  }
}

/** The log pane, with the side panes beside it (wide) or below it (narrower), when shown. */
function Panes(props: { log: LogPaneView; side: SidePanesView | undefined; height: number }) {
  const { side } = props;
  return (
    <Box flexDirection={side?.arrangement === "column" ? "row" : "column"} height={props.height}>
      <LogPane {...props.log} />
      {side ? (
        <Box flexDirection={side.arrangement === "column" ? "column" : "row"}>
          <ActivitiesPane {...side.activities} />
          <EmailPane {...side.email} />
          <SolanaPane {...side.solana} />
        </Box>
      ) : null}
    </Box>
  );
}
