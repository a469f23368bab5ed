/**
 * An amount as a server (or a decoded transaction) states it, checked before it is shown or
 * added up: a whole, non-negative number of atomic units with its decimals in bounds
 * (./token-amount.ts). Anything else is invalid: shown as such, with why, and never added to a
 * total. The one rule for every amount field: Solana transfers and their fees, decoded intents.
 */
import { amountProblem, formatAtomic } from "./token-amount.js";

export type ValidatedAmount =
  | {
      valid: true;
      /** The atomic units, for totals. */
      atomic: bigint;
      /** Formatted with its decimals: "1.2345". */
      shown: string;
    }
  | {
      valid: false;
      /** What a row shows in the amount's place: "(invalid: -5)", "(not an amount)". */
      shown: string;
      /** Why, in words, for a detail view. */
      why: string;
    };

/** `atomic` (a string of digits from the wire, or a decoded bigint) with `decimals`, checked. */
export function validatedAmount(atomic: string | bigint, decimals: number): ValidatedAmount {
  const text = typeof atomic === "bigint" ? atomic.toString() : atomic;
  const problem = amountProblem(text, decimals);
  if (problem !== undefined) {
    return { valid: false, shown: problem, why: `cannot be read: ${problem.slice(1, -1)}` };
  }
  if (text.startsWith("-")) {
    return {
      valid: false,
      shown: `(invalid: -${formatAtomic(text.slice(1), decimals)})`,
      why: `negative (${text} atomic units): an amount is never below zero, so it is left out of every total`,
    };
  }
  return { valid: true, atomic: BigInt(text), shown: formatAtomic(text, decimals) };
}
