/**
 * The simulator as a user starts it (`tvcwatch sim --port 0 ...`), for tests that run the whole
 * program against it: resolves with the process and its URL once it says where it listens.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { BIN } from "./run-cli.js";

export interface SimProcess {
  process: ChildProcess;
  url: string;
}

/** Starts `tvcwatch sim --port 0 ARGS...`; rejects if it says nothing of listening in 20 s. */
export function startSimProcess(args: readonly string[]): Promise<SimProcess> {
  const sim = spawn(process.execPath, [BIN, "sim", "--port", "0", ...args]);
  return new Promise<SimProcess>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
    sim.stdout?.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ process: sim, url: m[1] });
      }
    });
    sim.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
