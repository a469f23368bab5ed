/**
 * Exact token amounts from atomic units and decimals, with BigInt: never floats, never the
 * server's display string.
 */

/** "1234500" with 6 decimals -> "1.2345"; negative amounts keep their sign. */
export function formatAtomic(atomic: string | bigint, decimals: number): string {
  let value = typeof atomic === "bigint" ? atomic : BigInt(atomic);
  const negative = value < 0n;
  if (negative) value = -value;
  const scale = 10n ** BigInt(decimals);
  const whole = value / scale;
  const frac = (value % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  const groupedWhole = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${groupedWhole}${frac ? `.${frac}` : ""}`;
}

/** Whether a string is a whole number of atomic units. */
export function isAtomic(amount: string): boolean {
  return /^-?\d+$/.test(amount);
}
