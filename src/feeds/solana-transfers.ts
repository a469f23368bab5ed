/** The Solana pane's view: one row per transfer, exact amounts, net flow per asset. */
import type { SolTransaction } from "../api/schemas.js";
import { formatAtomic, isAtomic } from "./solana-amount.js";

export interface TransferRow {
  key: string;
  signature: string;
  address: string;
  at: number;
  direction: "IN" | "OUT";
  amount: string;
  symbol: string;
  counterparty: string;
  status: string;
  fee: string;
  failed: boolean;
}

export interface NetFlow {
  symbol: string;
  net: string;
  positive: boolean;
}

const SOL_DECIMALS = 9;

export function shortenAddress(address: string, keep = 4): string {
  return address.length <= keep * 2 + 1
    ? address
    : `${address.slice(0, keep)}…${address.slice(-keep)}`;
}

/**
 * Rows newest first, keyed by signature and transfer index, so a CONFIRMED row becomes FINALIZED
 * in place; and the net flow per asset over what is loaded.
 */
export function summarizeTransfers(byAddress: ReadonlyMap<string, readonly SolTransaction[]>): {
  rows: TransferRow[];
  net: NetFlow[];
} {
  const rows: TransferRow[] = [];
  const net = new Map<string, { decimals: number; sum: bigint }>();
  for (const [address, txs] of byAddress) {
    const seen = new Set<string>();
    for (const tx of txs) {
      if (seen.has(tx.signature)) continue;
      seen.add(tx.signature);
      tx.transfers.forEach((t, i) => {
        const decimals = t.asset?.decimals ?? SOL_DECIMALS;
        const symbol = t.asset?.symbol ?? "SOL";
        const valid = isAtomic(t.amount);
        const atomic = valid ? BigInt(t.amount) : 0n;
        if (valid && !tx.executionFailed) {
          const n = net.get(symbol) ?? { decimals, sum: 0n };
          n.sum += t.direction === "IN" ? atomic : -atomic;
          net.set(symbol, n);
        }
        rows.push({
          key: `${tx.signature}:${i}`,
          signature: tx.signature,
          address,
          at: Date.parse(tx.block.timestamp),
          direction: t.direction,
          amount: valid ? formatAtomic(atomic, decimals) : "?",
          symbol,
          counterparty: shortenAddress(t.counterparty),
          status: tx.status,
          fee: isAtomic(tx.fee.amount) ? formatAtomic(tx.fee.amount, SOL_DECIMALS) : "?",
          failed: tx.executionFailed === true,
        });
      });
    }
  }
  rows.sort((a, b) => b.at - a.at);
  return {
    rows,
    net: [...net.entries()].map(([symbol, { decimals, sum }]) => ({
      symbol,
      net: `${sum > 0n ? "+" : ""}${formatAtomic(sum, decimals)}`,
      positive: sum >= 0n,
    })),
  };
}
