/**
 * Simulated Solana transfers of the scenario's wallet-account addresses: SOL and SPL tokens with
 * their decimals, fees, signers; CONFIRMED until the block is 32 slots deep (about 13 s), then
 * FINALIZED.
 */
import type { Random } from "../random.js";

const FINALIZE_AFTER_MS = 13_000;

const ASSETS = [
  {
    caip19: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501",
    symbol: "SOL",
    name: "Solana",
    decimals: 9,
  },
  {
    caip19:
      "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/token:4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
    symbol: "USDC",
    name: "USD Coin",
    decimals: 6,
  },
  {
    caip19:
      "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/token:DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263",
    symbol: "BONK",
    name: "Bonk",
    decimals: 5,
  },
] as const;

export interface SimSolTransaction {
  address: string;
  at: number;
  signature: string;
  slot: number;
  blockHash: string;
  feePayer: string;
  signers: { address: string; writable: boolean }[];
  fee: string;
  transfers: {
    direction: "IN" | "OUT";
    asset: (typeof ASSETS)[number];
    amount: string;
    counterparty: string;
  }[];
}

export class SolTransactions {
  private readonly txs: SimSolTransaction[] = [];
  private nextAt: number;
  private slot = 312_000_000;

  constructor(
    private readonly rng: Random,
    private readonly addresses: readonly string[],
    private readonly perMinute: number,
    startMs: number,
    private readonly retentionMs: number,
  ) {
    this.nextAt = startMs - 15 * 60_000;
  }

  private make(at: number): void {
    const address = this.rng.pick(this.addresses);
    const asset = this.rng.chance(0.55) ? ASSETS[0] : this.rng.chance(0.8) ? ASSETS[1] : ASSETS[2];
    const direction = this.rng.chance(0.5) ? "IN" : "OUT";
    const counterparty = this.rng.base58(44);
    const whole = asset.symbol === "BONK" ? this.rng.int(1000, 5_000_000) : this.rng.int(0, 250);
    const frac = this.rng.int(0, 10 ** Math.min(asset.decimals, 6) - 1);
    const amount = (BigInt(whole) * 10n ** BigInt(asset.decimals) + BigInt(frac)).toString();
    const feePayer = direction === "OUT" ? address : counterparty;
    this.slot += this.rng.int(20, 400);
    this.txs.push({
      address,
      at,
      signature: this.rng.base58(88),
      slot: this.slot,
      blockHash: this.rng.base58(44),
      feePayer,
      signers: [{ address: feePayer, writable: true }],
      fee: String(5000 + this.rng.int(0, 3) * 5000),
      transfers: [{ direction, asset, amount, counterparty }],
    });
  }

  private advance(now: number): void {
    while (this.nextAt <= now) {
      this.make(this.nextAt);
      this.nextAt += this.rng.exponential(60_000 / this.perMinute);
    }
    const cutoff = now - this.retentionMs;
    while (this.txs.length > 0 && (this.txs[0] as SimSolTransaction).at < cutoff) this.txs.shift();
  }

  /** The transactions made in [from, to), in time order (what the ledger service logs). */
  madeDuring(from: number, to: number): SimSolTransaction[] {
    this.advance(to);
    let lo = 0;
    let hi = this.txs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.txs[mid] as SimSolTransaction).at < from) lo = mid + 1;
      else hi = mid;
    }
    const out: SimSolTransaction[] = [];
    for (let i = lo; i < this.txs.length && (this.txs[i] as SimSolTransaction).at < to; i++)
      out.push(this.txs[i] as SimSolTransaction);
    return out;
  }

  list(now: number, address: string): SimSolTransaction[] {
    this.advance(now);
    return this.txs.filter((t) => t.address === address && t.at <= now).sort((a, b) => b.at - a.at);
  }
}

export function toSolTransactionJson(t: SimSolTransaction, now: number, caip2: string) {
  return {
    signature: t.signature,
    block: { number: String(t.slot), hash: t.blockHash, timestamp: new Date(t.at).toISOString() },
    status: now - t.at >= FINALIZE_AFTER_MS ? "FINALIZED" : "CONFIRMED",
    origin: "ORIGIN_EXTERNAL",
    feePayer: t.feePayer,
    signers: t.signers,
    fee: { amount: t.fee, caip19: `${caip2}/slip44:501` },
    transfers: t.transfers.map((tr) => ({
      direction: tr.direction,
      asset: {
        caip19: tr.asset.caip19,
        symbol: tr.asset.symbol,
        name: tr.asset.name,
        decimals: tr.asset.decimals,
      },
      amount: tr.amount,
      counterparty: tr.counterparty,
      display: { crypto: `${tr.amount} (atomic ${tr.asset.symbol})` },
    })),
  };
}
