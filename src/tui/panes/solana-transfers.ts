/** The Solana pane's view: one row per transfer, exact amounts, net flow per asset. */
import type { SolTransaction } from "../../api/schemas.js";
import { keyMaker, onceEach } from "../../feeds/unique-keys.js";
import { lit, type Safe, safeBounded } from "../../text/safe-text.js";
import { formatAtomic } from "../../text/token-amount.js";
import { type ValidatedAmount, validatedAmount } from "../../text/validated-amount.js";
import type { DetailView } from "./detail-view.js";
import { field } from "./detail-view.js";

export interface TransferRow {
  /** Unique among the rows (a React key): transfer index and signature. */
  key: string;
  at: number;
  direction: "IN" | "OUT";
  amount: Safe;
  /** False: the server's amount is invalid (negative, unreadable): shown as such, not counted. */
  amountValid: boolean;
  symbol: Safe;
  /** Shortened for the row; the detail view has it in full. */
  counterparty: Safe;
  finalized: boolean;
  status: Safe;
  fee: Safe;
  feeValid: boolean;
  failed: boolean;
  /** The queried address the transfer was listed for. */
  address: string;
  tx: SolTransaction;
  transferIndex: number;
  /** How many times the server listed its transaction for the address: a repeat shown once, marked. */
  listed: number;
}

export interface NetFlow {
  symbol: Safe;
  net: Safe;
  positive: boolean;
}

const SOL_DECIMALS = 9;
const MAX_ROW_FIELD = 256;

/** `Abcd…wxyz`: the ends of a long address. */
export function shortenAddress(address: string, keep = 4): string {
  return address.length <= keep * 2 + 1
    ? address
    : `${address.slice(0, keep)}…${address.slice(-keep)}`;
}

/**
 * Rows newest first, keyed by signature and transfer index, so a CONFIRMED row becomes FINALIZED
 * in place; and the net flow per asset over what is loaded (an invalid amount, ./validated-amount.ts:
 * negative or unreadable, is shown as such and left out of the net).
 */
export function summarizeTransfers(byAddress: ReadonlyMap<string, readonly SolTransaction[]>): {
  rows: TransferRow[];
  net: NetFlow[];
} {
  const rows: TransferRow[] = [];
  const net = new Map<string, { symbol: Safe; decimals: number; sum: bigint }>();
  const keyOf = keyMaker();
  for (const [address, txs] of byAddress) {
    for (const { item: tx, times } of onceEach(txs, (tx) => tx.signature)) {
      tx.transfers.forEach((t, i) => {
        const decimals = t.asset?.decimals ?? SOL_DECIMALS;
        const rawSymbol = t.asset?.symbol ?? "SOL";
        const symbol = safeBounded(rawSymbol, 32);
        const amount = validatedAmount(t.amount, decimals);
        if (amount.valid && !tx.executionFailed) {
          const n = net.get(rawSymbol) ?? { symbol, decimals, sum: 0n };
          if (n.decimals === decimals) {
            n.sum += t.direction === "IN" ? amount.atomic : -amount.atomic;
            net.set(rawSymbol, n);
          }
        }
        const fee = validatedAmount(tx.fee.amount, SOL_DECIMALS);
        rows.push({
          key: keyOf(`${i}:${tx.signature}`),
          at: Date.parse(tx.block.timestamp),
          direction: t.direction,
          amount: safeBounded(amount.shown, MAX_ROW_FIELD),
          amountValid: amount.valid,
          symbol,
          counterparty: safeBounded(shortenAddress(t.counterparty), MAX_ROW_FIELD),
          finalized: tx.status === "FINALIZED",
          status: tx.status === "FINALIZED" ? lit`final` : lit`conf`,
          fee: safeBounded(fee.shown, MAX_ROW_FIELD),
          feeValid: fee.valid,
          failed: tx.executionFailed === true,
          address,
          tx,
          transferIndex: i,
          listed: times,
        });
      });
    }
  }
  rows.sort((a, b) => (b.at || 0) - (a.at || 0));
  return {
    rows,
    net: [...net.values()].map(({ symbol, decimals, sum }) => ({
      symbol,
      net: safeBounded(`${sum > 0n ? "+" : ""}${formatAtomic(sum, decimals)}`, MAX_ROW_FIELD),
      positive: sum >= 0n,
    })),
  };
}

/** Every field of the transfer and its transaction. */
export function transferDetail(row: TransferRow): DetailView {
  const { tx } = row;
  const t = tx.transfers[row.transferIndex];
  const fields = [
    field(lit`signature`, tx.signature),
    field(lit`address`, row.address),
    field(lit`direction`, t?.direction),
    field(lit`amount`, `${row.amount} ${row.symbol}`),
    ...invalidField(
      lit`amount invalid`,
      t && validatedAmount(t.amount, t.asset?.decimals ?? SOL_DECIMALS),
    ),
    field(lit`atomic`, t?.amount),
    field(
      lit`asset`,
      t?.asset
        ? `${t.asset.name} (${t.asset.symbol}, ${t.asset.caip19}, ${t.asset.decimals} decimals)`
        : "SOL (no asset given)",
    ),
    field(lit`counterparty`, t?.counterparty),
    field(lit`status`, tx.status),
    field(lit`failed`, tx.executionFailed === true ? "yes: execution failed" : "no"),
    field(lit`block`, `${tx.block.number} at ${tx.block.timestamp}`),
    field(lit`block hash`, tx.block.hash),
    field(lit`fee`, `${row.fee} SOL (${tx.fee.amount} atomic, ${tx.fee.caip19})`),
    ...invalidField(lit`fee invalid`, validatedAmount(tx.fee.amount, SOL_DECIMALS)),
    field(lit`fee payer`, tx.feePayer),
    field(lit`origin`, tx.origin),
    {
      label: lit`signers`,
      lines: tx.signers.map((s) =>
        safeBounded(`${s.address}${s.writable ? " (writable)" : ""}`, 4096),
      ),
    },
  ];
  if (t?.display?.crypto !== undefined) {
    fields.push(field(lit`server display`, `${t.display.crypto} (the server's text, not used)`));
  }
  return {
    title: lit`Solana transfer ${row.direction === "IN" ? lit`in` : lit`out`}`,
    fields,
  };
}

/** Why an amount is invalid, as a detail field; none for a valid one. */
function invalidField(label: Safe, amount: ValidatedAmount | undefined) {
  return amount && !amount.valid ? [field(label, amount.why)] : [];
}
