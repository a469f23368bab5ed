/**
 * The queries that name the organization's wallets, their accounts and its policies: list_wallets,
 * get_wallet, list_wallet_accounts (paged, newest first) and list_policies. Accounts are derived
 * from each wallet's seed as wallet apps derive them (../crypto/hd-keys.ts): Ethereum at
 * m/44'/60'/0'/0/0 and Solana at m/44'/501'/0'/0'. Policies are the
 * seeded organization's own, made from its ids (no activity of the table changes them). Neither
 * draws from the scenario's generator, so adding them shifted no other seeded value.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { entropyToMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { addressesFor } from "../crypto/addresses.js";
import { derivePublicKey, type HdCurve } from "../crypto/hd-keys.js";
import { type PaginationInput, paginate } from "../http/pagination.js";
import { notFound } from "../http/sim-error.js";
import { protoTimestamp } from "../proto-timestamp.js";
import { uuidOf } from "../seeded.js";
import type { OrgState, WalletRecord } from "./org-state.js";

interface AccountPlan {
  curve: HdCurve;
  path: string;
  addressFormat: "ADDRESS_FORMAT_ETHEREUM" | "ADDRESS_FORMAT_SOLANA";
  caip2Prefix: string;
}

const ETHEREUM: AccountPlan = {
  curve: "CURVE_SECP256K1",
  path: "m/44'/60'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM",
  caip2Prefix: "eip155",
};
const SOLANA: AccountPlan = {
  curve: "CURVE_ED25519",
  path: "m/44'/501'/0'/0'",
  addressFormat: "ADDRESS_FORMAT_SOLANA",
  caip2Prefix: "solana",
};

export interface WalletAccountRecord {
  walletAccountId: string;
  walletId: string;
  curve: HdCurve;
  path: string;
  addressFormat: string;
  address: string;
  /** Hex: compressed secp256k1, or the 32-byte ed25519 key. */
  publicKey: string;
  caip2Prefix: string;
  createdAt: number;
}

/** The BIP-39 seeds of the wallets, by entropy and passphrase: PBKDF2 is run once per wallet. */
const seeds = new Map<string, Uint8Array>();

function seedOf(wallet: WalletRecord): Uint8Array {
  const key = `${wallet.entropy}:${wallet.passphrase ?? ""}`;
  let seed = seeds.get(key);
  if (!seed) {
    const mnemonic = entropyToMnemonic(hexToBytes(wallet.entropy), wordlist);
    seed = mnemonicToSeedSync(mnemonic, wallet.passphrase ?? "");
    seeds.set(key, seed);
  }
  return seed;
}

const PLANS: readonly AccountPlan[] = [ETHEREUM, SOLANA];

function accountOf(wallet: WalletRecord, plan: AccountPlan): WalletAccountRecord {
  const publicKey = derivePublicKey(plan.curve, seedOf(wallet), plan.path);
  const address = addressesFor(plan.curve, publicKey).find((a) => a.format === plan.addressFormat);
  if (!address) throw new Error(`no ${plan.addressFormat} address for ${plan.curve}`);
  return {
    walletAccountId: uuidOf(
      sha256(new TextEncoder().encode(`${wallet.walletId}|${plan.curve}|${plan.path}`)),
    ),
    walletId: wallet.walletId,
    curve: plan.curve,
    path: plan.path,
    addressFormat: plan.addressFormat,
    address: address.address,
    publicKey: Array.from(publicKey, (b) => b.toString(16).padStart(2, "0")).join(""),
    caip2Prefix: plan.caip2Prefix,
    createdAt: wallet.createdAt,
  };
}

/** Every wallet's accounts, the newest wallet's first (list order, newest first). */
export function walletAccounts(state: OrgState): WalletAccountRecord[] {
  const wallets = [...state.wallets].sort((a, b) => b.createdAt - a.createdAt);
  return wallets.flatMap((wallet) => PLANS.map((plan) => accountOf(wallet, plan)));
}

/**
 * The Solana addresses of the organization's first wallets' accounts, the default wallet's first:
 * what the generated queue signs from and the Solana pane follows, so each is named by the
 * organization's own lists.
 */
export function solanaAccountAddresses(state: OrgState, count = 2): string[] {
  return state.wallets.slice(0, count).map((wallet) => accountOf(wallet, SOLANA).address);
}

function walletJson(w: WalletRecord) {
  return {
    walletId: w.walletId,
    walletName: w.walletName,
    createdAt: protoTimestamp(w.createdAt),
    updatedAt: protoTimestamp(w.createdAt),
    exported: w.exported,
    imported: false,
  };
}

export function listWallets(state: OrgState) {
  return { wallets: state.wallets.map(walletJson) };
}

export function getWallet(state: OrgState, walletId: string) {
  const wallet = state.wallets.find((w) => w.walletId === walletId);
  if (!wallet) throw notFound(`wallet ${walletId} not found`);
  return { wallet: walletJson(wallet) };
}

export function listWalletAccounts(
  state: OrgState,
  input: { walletId?: string; includeWalletDetails?: boolean; paginationOptions?: PaginationInput },
) {
  if (input.walletId !== undefined && !state.wallets.some((w) => w.walletId === input.walletId))
    throw notFound(`wallet ${input.walletId} not found`);
  const all = walletAccounts(state).filter(
    (a) => input.walletId === undefined || a.walletId === input.walletId,
  );
  const page = paginate(all, (a) => a.walletAccountId, input.paginationOptions);
  return {
    accounts: page.map((a) => {
      const wallet = state.wallets.find((w) => w.walletId === a.walletId);
      return {
        walletAccountId: a.walletAccountId,
        organizationId: state.organizationId,
        walletId: a.walletId,
        curve: a.curve,
        pathFormat: "PATH_FORMAT_BIP32",
        path: a.path,
        addressFormat: a.addressFormat,
        address: a.address,
        createdAt: protoTimestamp(a.createdAt),
        updatedAt: protoTimestamp(a.createdAt),
        publicKey: a.publicKey,
        caip2Prefix: a.caip2Prefix,
        ...(input.includeWalletDetails && wallet ? { walletDetails: walletJson(wallet) } : {}),
      };
    }),
  };
}

/** The seeded organization's policies, each id derived from the organization's seed. */
export function policiesOf(state: OrgState) {
  const onCall = state.tags.find((t) => t.tagName === "on-call")?.tagId ?? "";
  const hot = state.tags.find((t) => t.tagName === "hot-wallet")?.tagId ?? "";
  const deployer = state.users.find((u) => u.userName === "ci-deployer")?.userId ?? "";
  const cold = state.wallets[1]?.walletId ?? "";
  const at = protoTimestamp(state.wallets[0]?.createdAt ?? 0);
  const policy = (
    name: string,
    rest: { effect: string; consensus: string; condition: string; notes: string },
  ) => ({
    policyId: uuidOf(sha256(new TextEncoder().encode(`${state.organizationId}|policy|${name}`))),
    policyName: name,
    createdAt: at,
    updatedAt: at,
    ...rest,
  });
  return [
    policy("on-call approves exports", {
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.tags.contains('${onCall}'))`,
      condition: "activity.action == 'EXPORT'",
      notes: "an export needs an on-call user's approval besides the submitter",
    }),
    policy("ci-deployer signs with hot keys", {
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${deployer}')`,
      condition: `activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && private_key.tags.contains('${hot}')`,
      notes: "deployments sign with the hot treasury key without a second approval",
    }),
    policy("cold storage never exported", {
      effect: "EFFECT_DENY",
      consensus: "",
      condition: `activity.type == 'ACTIVITY_TYPE_EXPORT_WALLET' && wallet.id == '${cold}'`,
      notes: "",
    }),
  ];
}

export function listPolicies(state: OrgState) {
  return { policies: policiesOf(state) };
}
