// A module hook for tests: appends every module URL the program resolves to the file named by
// TVCWATCH_RECORD_MODULES (one per line). Loaded with `node --import`.
import { appendFileSync } from "node:fs";
import { register } from "node:module";

if (process.env.TVCWATCH_RECORD_MODULES) {
  register(new URL(import.meta.url), { data: process.env.TVCWATCH_RECORD_MODULES });
}

let target;
export function initialize(data) {
  target = data;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (target) appendFileSync(target, `${result.url}\n`);
  return result;
}
