/**
 * Whether two values hold the same data: the same primitives (Object.is), arrays of the same
 * data, plain objects with the same keys holding the same data; anything else (a Map, a class's
 * instance, a function) only when it is the same object. The dashboard keeps what it drew when
 * what it built again is the same data (a tick that moved nothing shown), so that nothing is
 * drawn again. Nested deeper than MAX_DEPTH, data is not compared: it is told different.
 */
const MAX_DEPTH = 64;

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function sameData(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) {
    if (!Object.hasOwn(b, k)) return false;
    if (!sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1))
      return false;
  }
  return true;
}
