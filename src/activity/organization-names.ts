/**
 * Names beside ids: the organization's records by id (and its wallet accounts and private keys by
 * address too, as intents name them in `signWith`), read once and refreshed, for the command line
 * and the dashboard alike. `OrganizationNames` is one reading; `OrganizationDirectory` reads it
 * (every list at once, each one optional: a list the API refuses is a note, never an error) and
 * reads it again when it is asked for after `maxAgeMs`. Wallet accounts are read in at most
 * MAX_ACCOUNT_PAGES pages; every list is bounded by the client's response size, and the names
 * kept by MAX_NAMES.
 *
 * Names are the server's text: callers escape them with the line they are in.
 */
import type { CallOptions, TurnkeyClient } from "../api/client.js";
import { TurnkeyApiError } from "../api/errors.js";
import { grouped } from "../text/grouped-number.js";

export type NamedKind =
  | "user"
  | "wallet"
  | "wallet account"
  | "private key"
  | "user tag"
  | "policy"
  | "smart contract interface";

export interface NamedRecord {
  kind: NamedKind;
  name: string;
}

/** Names kept at most (past it, the rest of a list is left unnamed and a note says so). */
export const MAX_NAMES = 20_000;
/** Wallet accounts are read in pages of ACCOUNT_PAGE, at most this many pages. */
export const MAX_ACCOUNT_PAGES = 10;
export const ACCOUNT_PAGE = 100;
/** How old a reading may be before it is read again when asked for. */
export const NAMES_MAX_AGE_MS = 5 * 60_000;

/** 0x-hex (Ethereum addresses, keys) compares without regard to case; other text exactly. */
function keyOf(idOrAddress: string): string {
  return /^0x[0-9a-f]+$/i.test(idOrAddress) ? idOrAddress.toLowerCase() : idOrAddress;
}

/** One reading of the organization's names. */
export class OrganizationNames {
  private readonly byKey = new Map<string, NamedRecord>();

  constructor(
    entries: Iterable<readonly [string, NamedRecord]> = [],
    /** What could not be read (`names of wallets not shown: ...`), one line each. */
    readonly notes: readonly string[] = [],
    /** When it was read (epoch ms); undefined for no reading. */
    readonly readAt?: number,
  ) {
    for (const [id, record] of entries) {
      if (this.byKey.size >= MAX_NAMES) break;
      if (id !== "" && record.name !== "" && !this.byKey.has(keyOf(id)))
        this.byKey.set(keyOf(id), record);
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The record an id (or address) names, if the organization lists it. */
  get(idOrAddress: string): NamedRecord | undefined {
    return this.byKey.get(keyOf(idOrAddress));
  }

  /** `wallet "Default wallet"`, or undefined for a value that names nothing listed. */
  label(idOrAddress: string): string | undefined {
    const r = this.get(idOrAddress);
    return r ? `${r.kind} "${r.name}"` : undefined;
  }

  /** The users' names by id, as the decision's `userNames` takes them. */
  userNames(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [id, r] of this.byKey) if (r.kind === "user") out.set(id, r.name);
    return out;
  }
}

export const NO_NAMES = new OrganizationNames();

type Options = Pick<CallOptions, "onRetry" | "signal">;

/** One list of names: what it names (for its note) and how it is read. */
interface NameSource {
  what: string;
  read(client: TurnkeyClient, options: Options): Promise<[string, NamedRecord][]>;
}

const named = (kind: NamedKind, name: string): NamedRecord => ({ kind, name });

/** The wallets' accounts, page after page (newest first) up to the bound. */
async function walletAccounts(
  client: TurnkeyClient,
  options: Options,
  wallets: ReadonlyMap<string, string>,
): Promise<[string, NamedRecord][]> {
  const out: [string, NamedRecord][] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_ACCOUNT_PAGES; page++) {
    const { accounts } = await client.call(
      "list_wallet_accounts",
      { paginationOptions: { limit: String(ACCOUNT_PAGE), ...(after ? { after } : {}) } },
      options,
    );
    for (const a of accounts) {
      const wallet = wallets.get(a.walletId);
      const name = a.name || (wallet ? `${wallet} ${a.path}` : a.path);
      out.push([a.walletAccountId, named("wallet account", name)]);
      out.push([a.address, named("wallet account", name)]);
    }
    if (accounts.length < ACCOUNT_PAGE) break;
    after = accounts.at(-1)?.walletAccountId;
  }
  return out;
}

/** Every list that names records. */
const SOURCES: readonly NameSource[] = [
  {
    what: "users",
    read: async (client, options) =>
      (await client.call("list_users", {}, options)).users.map((u) => [
        u.userId,
        named("user", u.userName),
      ]),
  },
  {
    what: "wallets and their accounts",
    read: async (client, options) => {
      const { wallets } = await client.call("list_wallets", {}, options);
      const names = new Map(wallets.map((w) => [w.walletId, w.walletName]));
      const own: [string, NamedRecord][] = wallets.map((w) => [
        w.walletId,
        named("wallet", w.walletName),
      ]);
      return [...own, ...(await walletAccounts(client, options, names))];
    },
  },
  {
    what: "private keys",
    read: async (client, options) =>
      (await client.call("list_private_keys", {}, options)).privateKeys.flatMap((k) => [
        [k.privateKeyId, named("private key", k.privateKeyName)] as [string, NamedRecord],
        ...k.addresses.flatMap((a): [string, NamedRecord][] =>
          a.address ? [[a.address, named("private key", k.privateKeyName)]] : [],
        ),
      ]),
  },
  {
    what: "tags",
    read: async (client, options) =>
      (await client.call("list_user_tags", {}, options)).userTags.map((t) => [
        t.tagId,
        named("user tag", t.tagName),
      ]),
  },
  {
    what: "smart contract interfaces",
    read: async (client, options) =>
      (
        await client.call("list_smart_contract_interfaces", {}, options)
      ).smartContractInterfaces.flatMap((i): [string, NamedRecord][] => [
        [i.smartContractInterfaceId, named("smart contract interface", i.label)],
        ...(i.smartContractAddress
          ? [
              [i.smartContractAddress, named("smart contract interface", i.label)] as [
                string,
                NamedRecord,
              ],
            ]
          : []),
      ]),
  },
  {
    what: "policies",
    read: async (client, options) =>
      (await client.call("list_policies", {}, options)).policies.map((p) => [
        p.policyId,
        named("policy", p.policyName),
      ]),
  },
];

/** "a", "a and b", "a, b and c". */
function listOf(items: readonly string[]): string {
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * One note per distinct reason: `names of users and tags not shown: PERMISSION_DENIED (HTTP
 * 403): request not authorized (list_users, list_user_tags)`.
 */
function failureNotes(failed: readonly { what: string; err: unknown }[]): string[] {
  const byReason = new Map<string, { whats: string[]; ops: string[] }>();
  for (const { what, err } of failed) {
    const api = err instanceof TurnkeyApiError;
    const reason = api ? err.describe() : err instanceof Error ? err.message : String(err);
    const group = byReason.get(reason) ?? { whats: [], ops: [] };
    group.whats.push(what);
    if (api && err.operation) group.ops.push(err.operation);
    byReason.set(reason, group);
  }
  return [...byReason].map(
    ([reason, g]) =>
      `names of ${listOf(g.whats)} not shown: ${reason}${g.ops.length ? ` (${g.ops.join(", ")})` : ""}`,
  );
}

/** Reads every list once, at once; a list that cannot be read is a note. */
export async function readOrganizationNames(
  client: TurnkeyClient,
  now: () => number,
  options: Options = {},
): Promise<OrganizationNames> {
  const results = await Promise.allSettled(SOURCES.map((s) => s.read(client, options)));
  if (options.signal?.aborted) throw options.signal.reason;
  const entries: [string, NamedRecord][] = [];
  const failed: { what: string; err: unknown }[] = [];
  results.forEach((r, i) => {
    if (r.status === "fulfilled") entries.push(...r.value);
    else failed.push({ what: SOURCES[i]?.what ?? "records", err: r.reason });
  });
  const notes = failureNotes(failed);
  if (entries.length > MAX_NAMES)
    notes.push(`names past the first ${grouped(MAX_NAMES)} not shown`);
  return new OrganizationNames(entries, notes, now());
}

/**
 * The organization's names, read once and again when asked for after `maxAgeMs`; reads asked
 * for while one is under way share it. A failed refresh keeps the names read before.
 */
export class OrganizationDirectory {
  private names: OrganizationNames = NO_NAMES;
  private reading: Promise<OrganizationNames> | undefined;
  /** When the last reading started: the next starts `maxAgeMs` later, whatever it brought. */
  private triedAt: number | undefined;

  constructor(
    private readonly client: TurnkeyClient,
    private readonly now: () => number = Date.now,
    private readonly maxAgeMs = NAMES_MAX_AGE_MS,
  ) {}

  /** The names read last (none before the first reading). */
  current(): OrganizationNames {
    return this.names;
  }

  /** Whether a reading is due: never read, or the last one started `maxAgeMs` ago or more. */
  due(): boolean {
    return this.triedAt === undefined || this.now() - this.triedAt >= this.maxAgeMs;
  }

  /** The names, read now when never read or older than `maxAgeMs`. */
  load(options: Options = {}): Promise<OrganizationNames> {
    if (this.reading) return this.reading;
    const at = this.triedAt;
    if (at !== undefined && this.now() - at < this.maxAgeMs) return Promise.resolve(this.names);
    this.triedAt = this.now();
    this.reading = readOrganizationNames(this.client, this.now, options)
      .then((names) => {
        // A reading with nothing and notes does not replace names read before.
        if (names.size > 0 || this.names.size === 0) this.names = names;
        return this.names;
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }
}
