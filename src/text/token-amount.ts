/**
 * Exact token amounts from atomic units and decimals: digit strings cut and grouped in one pass
 * (never floats, never the server's display string, never a regex over the digits), within
 * bounds: `decimals` up to 255 and amounts up to 100 digits (a u256 has 78). Anything beyond is
 * not formatted: the caller shows why instead.
 */
import { grouped } from "./grouped-number.js";

export const MAX_DECIMALS = 255;
export const MAX_AMOUNT_DIGITS = 100;

/** Why an amount cannot be shown, or undefined when it can. */
export function amountProblem(atomic: string, decimals: number): string | undefined {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    return `(decimals ${Number.isFinite(decimals) ? decimals : "?"} out of range)`;
  }
  const digits = atomic.length - (atomic.startsWith("-") ? 1 : 0);
  if (digits > MAX_AMOUNT_DIGITS) return `(amount too long: ${grouped(digits)} digits)`;
  if (!isAtomic(atomic)) return "(not an amount)";
  return undefined;
}

/** Whether a string is a whole number of atomic units. */
export function isAtomic(amount: string): boolean {
  const start = amount.startsWith("-") ? 1 : 0;
  if (amount.length === start) return false;
  for (let i = start; i < amount.length; i++) {
    const c = amount.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** "1234567" -> "1,234,567" */
function group(whole: string): string {
  const first = whole.length % 3 || 3;
  let out = whole.slice(0, first);
  for (let i = first; i < whole.length; i += 3) out += `,${whole.slice(i, i + 3)}`;
  return out;
}

/**
 * "1234500" with 6 decimals -> "1.2345"; negative amounts keep their sign. Out of bounds (see
 * amountProblem) it returns the problem in parentheses.
 */
export function formatAtomic(atomic: string | bigint, decimals: number): string {
  const text = typeof atomic === "bigint" ? atomic.toString() : atomic;
  const problem = amountProblem(text, decimals);
  if (problem) return problem;
  const negative = text.startsWith("-");
  let digits = negative ? text.slice(1) : text;
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) === 48) lead++;
  digits = digits.slice(lead);
  const padded =
    digits.length <= decimals ? "0".repeat(decimals - digits.length + 1) + digits : digits;
  const whole = padded.slice(0, padded.length - decimals);
  let fracEnd = padded.length;
  while (fracEnd > whole.length && padded.charCodeAt(fracEnd - 1) === 48) fracEnd--;
  const frac = padded.slice(whole.length, fracEnd);
  const sign = negative && (whole !== "0" || frac !== "") ? "-" : "";
  return `${sign}${group(whole)}${frac ? `.${frac}` : ""}`;
}
