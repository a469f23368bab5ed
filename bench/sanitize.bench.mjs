// The terminal sanitizer on 1M log lines, against JSON.stringify of the same lines (another
// function that must look at every character to make a string safe), in one run. Two data sets:
// clean lines (the common case, a precompiled regex test and no copy) and lines of which 1% carry
// escape sequences or controls. Prints both rates and the ratio for each.
import { HOSTILE_LINES } from "../dist/sim/traffic/log-templates.js";
import { sanitizeForTerminal } from "../dist/text/sanitize.js";

const N = Number(process.env.BENCH_LINES ?? 1_000_000);
const ROUNDS = 5;

function cleanLine(i) {
  switch (i % 4) {
    case 0:
      return `10.0.${i % 10}.${i % 250} "POST /v1/transfers" 200 ${1000 + (i % 9000)} ${(i % 80) + 0.5}ms id=${i}`;
    case 1:
      return `{"level":"info","msg":"settled transfer","seq":${i},"latencyMs":${i % 400}}`;
    case 2:
      return `INFO  signer: policy evaluated\tid=${i} items=${i % 60} in ${i % 90}ms`;
    default:
      return `Zahlung bestätigt für Müller — ${i % 100},50 € 用户 ${i}`;
  }
}

// Strings made apart from each other, as a parser makes them (no shared rope or slice).
const clean = Array.from({ length: N }, (_, i) => cleanLine(i));
const mixed = clean.map((line, i) =>
  i % 100 === 7 ? `${line} ${HOSTILE_LINES[i % HOSTILE_LINES.length]}` : line,
);

function best(fn, lines) {
  let ms = Number.POSITIVE_INFINITY;
  let out = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    let n = 0;
    for (let i = 0; i < lines.length; i++) n += fn(lines[i]).length;
    ms = Math.min(ms, Number(process.hrtime.bigint() - t0) / 1e6);
    out = n;
  }
  return { ms, out };
}

for (const [name, lines] of [
  ["clean lines", clean],
  ["1% hostile", mixed],
]) {
  const json = best(JSON.stringify, lines);
  const sanitize = best(sanitizeForTerminal, lines);
  const rate = (r) => `${(((lines.length / r.ms) * 1000) / 1e6).toFixed(1)} M lines/s`;
  console.log(
    `${name.padEnd(12)} sanitizeForTerminal ${rate(sanitize)}, JSON.stringify ${rate(json)}; ratio ${(json.ms / sanitize.ms).toFixed(2)}x (best of ${ROUNDS})`,
  );
}
