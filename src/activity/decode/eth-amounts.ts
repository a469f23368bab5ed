/**
 * Ethereum amounts as a person judges them: exact (never rounded), with their thousands grouped
 * as every other amount the tool shows (text/token-amount.ts: Solana's, the tokens'). The JSON
 * decodings keep viem's plain forms (`valueEth`), for programs.
 */
import { formatAtomic } from "../../text/token-amount.js";

/** "1,234.5 ETH" */
export const ether = (wei: bigint): string => `${formatAtomic(wei, 18)} ETH`;

/** "1,234.5 ETH (1,234,500,000,000,000,000,000 wei)" */
export const etherAndWei = (wei: bigint): string => `${ether(wei)} (${formatAtomic(wei, 0)} wei)`;

/** "1.5 gwei" */
export const gwei = (wei: bigint): string => `${formatAtomic(wei, 9)} gwei`;

/** A token's amount in its units: "1,000.25" from 1000250000 at 6 decimals. */
export const tokenUnits = (amount: bigint, decimals: number): string =>
  formatAtomic(amount, decimals);
