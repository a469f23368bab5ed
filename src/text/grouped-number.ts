/**
 * A count with its thousands grouped by commas (1,234,567), as `toLocaleString("en-US")` writes
 * it, without ICU: the first `toLocaleString` of a number loads ICU's number formatting (more of
 * the runtime's pages resident, for as long as it runs) for a comma every three digits. A number
 * that is not an integer (or too large to be exact) is written by `toLocaleString("en-US")`.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let k = out.length; k < digits.length; k += 3) out += `,${digits.slice(k, k + 3)}`;
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}
