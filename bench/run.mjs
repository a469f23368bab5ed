// Runs every benchmark in this folder (files named *.bench.mjs), one after another, each in its
// own Node process so one's heap does not colour the next. Benchmarks import the built program
// from dist/ (`npm run bench` builds first) and print their own figures as ratios against a
// baseline measured in the same run.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const run = spawnSync(process.execPath, ["--expose-gc", `${dir}${file}`], { stdio: "inherit" });
  if (run.status !== 0) failed += 1;
}
if (files.length === 0) process.stdout.write("no benchmarks matched\n");
process.exitCode = failed === 0 ? 0 : 1;
