import { useStdout } from "ink";
import { useEffect } from "react";

/**
 * Tells `target` the terminal's size now and at each resize (ink-testing-library's stdout has
 * no rows: 30 then). The size is the controller's to know: keys page and scroll by it.
 */
export function useTerminalResize(target: { resize(columns: number, rows: number): void }): void {
  const { stdout } = useStdout();
  useEffect(() => {
    const onResize = () => target.resize(stdout.columns || 100, stdout.rows || 30);
    onResize();
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [target, stdout]);
}
