/**
 * The ABIs and IDLs the organization stores (list_smart_contract_interfaces): what a call to one
 * of its contracts, or an instruction to one of its programs, is decoded with. Read once when a
 * decoding first needs them; when the API refuses them (a user whose policies do not allow it)
 * the decoding goes on without them and says so, and they are asked again a minute later.
 */
import type { TurnkeyClient } from "../../api/client.js";
import type { SmartContractInterface } from "../../api/schemas.js";
import { reasonOf } from "./decoded-intent.js";

export interface ContractInterfaces {
  list: readonly SmartContractInterface[];
  /** Why there are none to decode with (`contract interfaces not read: …`). */
  note?: string | undefined;
}

/** What a decoding asks for the interfaces through. */
export type InterfaceSource = () => Promise<ContractInterfaces>;

export const NO_INTERFACES: ContractInterfaces = { list: [] };

/** How long a failed read is remembered before the next decoding asks again. */
const RETRY_AFTER_MS = 60_000;

/** One read of the organization's interfaces, shared by every decoding; a failure is a note. */
export function contractInterfaceSource(
  client: Pick<TurnkeyClient, "call">,
  now: () => number = Date.now,
): InterfaceSource {
  let read: Promise<ContractInterfaces> | undefined;
  let failedAt: number | undefined;
  return () => {
    if (read && (failedAt === undefined || now() - failedAt < RETRY_AFTER_MS)) return read;
    failedAt = undefined;
    read = client.call("list_smart_contract_interfaces", {}).then(
      (r) => ({ list: r.smartContractInterfaces }),
      (err: unknown) => {
        failedAt = now();
        return { list: [], note: `contract interfaces not read: ${reasonOf(err)}` };
      },
    );
    return read;
  };
}

/** `ETHEREUM` for both `SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM` and `ETHEREUM`. */
function kindOf(i: SmartContractInterface): string {
  return i.type.replace(/^SMART_CONTRACT_INTERFACE_TYPE_/, "").toUpperCase();
}

/** The Ethereum ABI stored for `address` (compared case-insensitively), if any. */
export function ethereumInterfaceFor(
  interfaces: ContractInterfaces,
  address: string,
): SmartContractInterface | undefined {
  const want = address.toLowerCase();
  return interfaces.list.find(
    (i) => kindOf(i) === "ETHEREUM" && i.smartContractAddress.toLowerCase() === want,
  );
}

/** The Solana IDL stored for the program `programId`, if any. */
export function solanaInterfaceFor(
  interfaces: ContractInterfaces,
  programId: string,
): SmartContractInterface | undefined {
  return interfaces.list.find(
    (i) => kindOf(i) === "SOLANA" && i.smartContractAddress === programId,
  );
}

/** An interface's JSON, or why it is not JSON. */
export function parsedInterface(i: SmartContractInterface): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(i.smartContractInterface) as unknown };
  } catch (err) {
    return { error: `its stored interface is not JSON (${reasonOf(err)})` };
  }
}
