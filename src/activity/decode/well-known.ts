/**
 * Tokens whose decimals tvcwatch knows without asking a chain: a few of the most used ERC-20
 * contracts and SPL mints (mainnet, and the test networks the simulator uses), so an amount can
 * be said in token units. Anything else is said raw, with its decimals said unknown.
 */

export interface KnownToken {
  symbol: string;
  decimals: number;
}

/** ERC-20 contracts by chain id, addresses lowercase. */
const ERC20: Record<number, Record<string, KnownToken>> = {
  1: {
    "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48": { symbol: "USDC", decimals: 6 },
    "0xdac17f958d2ee523a2206206994597c13d831ec7": { symbol: "USDT", decimals: 6 },
    "0x6b175474e89094c44da98b954eedeac495271d0f": { symbol: "DAI", decimals: 18 },
    "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2": { symbol: "WETH", decimals: 18 },
  },
  11155111: {
    "0x1c7d4b196cb0c7b01d743fbc6116a902379c7238": { symbol: "USDC", decimals: 6 },
  },
  8453: {
    "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913": { symbol: "USDC", decimals: 6 },
  },
};

/** SPL mints (Token and Token-2022 programs). */
const SPL: Record<string, KnownToken> = {
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: { symbol: "USDC", decimals: 6 },
  Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB: { symbol: "USDT", decimals: 6 },
  "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU": { symbol: "USDC", decimals: 6 },
  So11111111111111111111111111111111111111112: { symbol: "wSOL", decimals: 9 },
  DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263: { symbol: "BONK", decimals: 5 },
};

export function knownToken(chainId: number | undefined, address: string): KnownToken | undefined {
  if (chainId === undefined) return undefined;
  return ERC20[chainId]?.[address.toLowerCase()];
}

export function knownMint(mint: string): KnownToken | undefined {
  return Object.hasOwn(SPL, mint) ? SPL[mint] : undefined;
}
