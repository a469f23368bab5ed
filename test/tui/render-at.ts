/**
 * ink-testing-library's render with a terminal of a given size. Component tests render through
 * ink-testing-library itself where the size does not matter (./render-dashboard.tsx does when no
 * size is given); this stays for the rest: its stdout is always 100 columns wide and has no rows,
 * so the layouts the dashboard chooses by size (side panes below the log from 60 columns, beside
 * it from 120, hidden when short), what fits at 80x24, and the vote overlay's room cannot be
 * tested on it, and Ink lays a wider frame out wrong on it (flexible boxes come out short).
 */
import { EventEmitter } from "node:events";
import { render as inkRender } from "ink";
import type { ReactElement } from "react";

class Stdout extends EventEmitter {
  frames: string[] = [];
  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
  };
  lastFrame = () => this.frames[this.frames.length - 1];
}

class Stdin extends EventEmitter {
  isTTY = true;
  data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit("readable");
    this.emit("data", data);
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const { data } = this;
    this.data = null;
    return data;
  };
}

export function renderAt(tree: ReactElement, size: { columns: number; rows: number }) {
  const stdout = new Stdout(size.columns, size.rows);
  const stderr = new Stdout(size.columns, size.rows);
  const stdin = new Stdin();
  const instance = inkRender(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    rerender: instance.rerender,
    unmount: instance.unmount,
    stdin,
    frames: stdout.frames,
    lastFrame: stdout.lastFrame,
  };
}

/** renderAt at the size the element asks for (its columns or width, and rows props). */
export function render(tree: ReactElement<{ columns?: number; width?: number; rows?: number }>) {
  const p = tree.props;
  return renderAt(tree, { columns: p.columns ?? p.width ?? 100, rows: p.rows ?? 30 });
}
