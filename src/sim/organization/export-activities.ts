/**
 * export_wallet and export_secrets: the wallet's mnemonic (in the requested BIP-39 language, its
 * passphrase on a second line when it has one) and secret values, each encrypted to the client's
 * targetPublicKey in Turnkey's formats.
 */
import { hexToBytes } from "@noble/hashes/utils.js";
import { entropyToMnemonic } from "@scure/bip39";
import { wordlist as czech } from "@scure/bip39/wordlists/czech.js";
import { wordlist as english } from "@scure/bip39/wordlists/english.js";
import { wordlist as french } from "@scure/bip39/wordlists/french.js";
import { wordlist as italian } from "@scure/bip39/wordlists/italian.js";
import { wordlist as japanese } from "@scure/bip39/wordlists/japanese.js";
import { wordlist as korean } from "@scure/bip39/wordlists/korean.js";
import { wordlist as simplifiedChinese } from "@scure/bip39/wordlists/simplified-chinese.js";
import { wordlist as spanish } from "@scure/bip39/wordlists/spanish.js";
import { wordlist as traditionalChinese } from "@scure/bip39/wordlists/traditional-chinese.js";
import { notFound } from "../http/sim-error.js";
import type { ActivityContext, ParamsOf } from "./activity-context.js";

const WORDLISTS: Record<string, string[]> = {
  MNEMONIC_LANGUAGE_ENGLISH: english,
  MNEMONIC_LANGUAGE_SIMPLIFIED_CHINESE: simplifiedChinese,
  MNEMONIC_LANGUAGE_TRADITIONAL_CHINESE: traditionalChinese,
  MNEMONIC_LANGUAGE_CZECH: czech,
  MNEMONIC_LANGUAGE_FRENCH: french,
  MNEMONIC_LANGUAGE_ITALIAN: italian,
  MNEMONIC_LANGUAGE_JAPANESE: japanese,
  MNEMONIC_LANGUAGE_KOREAN: korean,
  MNEMONIC_LANGUAGE_SPANISH: spanish,
};

/** The wallet's mnemonic in a BIP-39 language (English when none is given). */
export function mnemonicOf(entropyHex: string, language = "MNEMONIC_LANGUAGE_ENGLISH"): string {
  const wordlist = WORDLISTS[language];
  if (!wordlist) throw new Error(`no BIP-39 wordlist for ${language}`);
  return entropyToMnemonic(hexToBytes(entropyHex), wordlist);
}

export async function exportWallet(ctx: ActivityContext, p: ParamsOf<"export_wallet">) {
  const wallet = ctx.state.wallets.find((w) => w.walletId === p.walletId);
  if (!wallet) throw notFound(`wallet ${p.walletId} not found`);
  const mnemonic = mnemonicOf(wallet.entropy, p.language);
  const text = wallet.passphrase ? `${mnemonic}\n${wallet.passphrase}` : mnemonic;
  const exportBundle = await ctx.exportBundle(new TextEncoder().encode(text), p.targetPublicKey);
  wallet.exported = true;
  return { walletId: wallet.walletId, exportBundle };
}

export async function exportSecrets(ctx: ActivityContext, p: ParamsOf<"export_secrets">) {
  const found = p.secrets.map((s) => {
    const secret = ctx.state.secrets.find((x) => x.secretId === s.secretId);
    if (!secret) throw notFound(`secret ${s.secretId} not found`);
    return { secret, targetPublicKey: s.targetPublicKey };
  });
  const secretPayloads: string[] = [];
  for (const { secret, targetPublicKey } of found) {
    secretPayloads.push(
      await ctx.secretPayload(new TextEncoder().encode(secret.value), targetPublicKey),
    );
  }
  return { secretPayloads };
}
