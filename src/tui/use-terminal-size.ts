import { useStdout } from "ink";
import { useEffect, useState } from "react";

/** The terminal's size, updated on resize; fixed sizes (tests) win. */
export function useTerminalSize(fixed?: {
  columns?: number | undefined;
  rows?: number | undefined;
}): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({
    columns: fixed?.columns ?? stdout.columns ?? 100,
    rows: fixed?.rows ?? stdout.rows ?? 30,
  });
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed?.columns !== undefined && fixed.rows !== undefined) return;
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  });
  return size;
}
