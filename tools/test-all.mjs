// `npm test`: the type check and the tests at once, then each one's verdict. The tests spend much
// of their time waiting on real time (processes, terminals), so the type check fills CPU they
// leave idle. The type check's output is held until the tests end, so the two do not interleave;
// the exit code is non-zero when either failed. Arguments go to vitest.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

function run(command, args, { hold }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: hold ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    const held = [];
    if (hold) {
      child.stdout.on("data", (d) => held.push(d));
      child.stderr.on("data", (d) => held.push(d));
    }
    child.on("error", (e) => resolve({ code: 1, output: `${command}: ${e.message}\n` }));
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(held).toString() }),
    );
  });
}

const [types, tests] = await Promise.all([
  run(bin("tsc"), ["-p", "tsconfig.json", "--noEmit"], { hold: true }),
  run(bin("vitest"), ["run", ...process.argv.slice(2)], { hold: false }),
]);
process.stdout.write(types.output);
console.log(types.code === 0 ? "typecheck: passed" : "typecheck: FAILED (above)");
if (tests.code !== 0) console.log("tests: FAILED (above)");
process.exit(types.code || tests.code);
