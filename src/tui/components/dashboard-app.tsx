import { useInput } from "ink";
import { useCallback, useSyncExternalStore } from "react";
import type { AppController } from "../controller/app-controller.js";
import { DashboardScreen } from "./dashboard.js";
import { DeploymentPicker } from "./deployment-picker.js";
import { ColourContext } from "./safe-text.js";
import { useTerminalResize } from "./use-terminal-resize.js";

/**
 * The picker and the dashboard in one full-screen app, as the app controller has them: without
 * a deployment, the picker alone; after `D`, the picker in the dashboard's body (its title and
 * status line stay; it keeps following). Keys and the terminal's size go to the controller.
 */
export function DashboardApp(props: { app: AppController; colour: boolean }) {
  const { app } = props;
  const snapshot = useSyncExternalStore(app.subscribe, app.getSnapshot);
  useTerminalResize(app);
  // One handler for the app's life: Ink subscribes to input again when it changes.
  const press = useCallback<Parameters<typeof useInput>[0]>(
    (input, key) => app.press(input, key),
    [app],
  );
  useInput(press);
  const { picker, dashboard, size } = snapshot;
  const drawPicker = picker
    ? (width: number, rows: number) => (
        <DeploymentPicker
          load={picker.load}
          state={picker.state}
          list={picker.list}
          over={picker.over}
          width={width}
          rows={rows}
        />
      )
    : undefined;
  if (!dashboard) {
    return (
      <ColourContext.Provider value={props.colour}>
        {drawPicker?.(size.columns, size.rows)}
      </ColourContext.Provider>
    );
  }
  return <DashboardScreen controller={dashboard} colour={props.colour} over={drawPicker} />;
}
