/**
 * Values completion offers that the commander tree does not carry: the operation names `call`
 * takes (from the operation table), the scenarios `demo` accepts and the Solana networks.
 * Options declared with `.choices()` need nothing here; their choices are read from the tree.
 */
import { getOperation, operationNames } from "../../../api/operations.js";
import { SOLANA_CAIP2 } from "../../../api/schemas.js";
import { SCENARIOS } from "../../../sim/scenario.js";
import type { ExtraValues } from "./tree.js";

export const EXTRA_VALUES: readonly ExtraValues[] = [
  {
    command: "call",
    target: 0,
    words: operationNames.map((name) => ({ value: name, description: getOperation(name).summary })),
  },
  { command: "demo", target: "--scenario", words: SCENARIOS.map((value) => ({ value })) },
  { command: "*", target: "--caip2", words: SOLANA_CAIP2.map((value) => ({ value })) },
];
