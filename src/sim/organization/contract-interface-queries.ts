/**
 * list_smart_contract_interfaces and get_smart_contract_interface: the ABIs and IDLs the
 * organization stores (create_smart_contract_interface), as the swagger's
 * externaldatav1SmartContractInterface has them.
 */
import { notFound } from "../http/sim-error.js";
import { protoTimestamp } from "../proto-timestamp.js";
import type { OrgState, SmartContractInterfaceRecord } from "./org-state.js";

function interfaceJson(state: OrgState, s: SmartContractInterfaceRecord) {
  return {
    organizationId: state.organizationId,
    smartContractInterfaceId: s.smartContractInterfaceId,
    smartContractAddress: s.smartContractAddress,
    smartContractInterface: s.smartContractInterface,
    type: s.type,
    label: s.label,
    notes: s.notes ?? "",
    createdAt: protoTimestamp(s.createdAt),
    updatedAt: protoTimestamp(s.createdAt),
  };
}

export function listSmartContractInterfaces(state: OrgState) {
  return {
    smartContractInterfaces: state.smartContractInterfaces.map((s) => interfaceJson(state, s)),
  };
}

export function getSmartContractInterface(state: OrgState, id: string) {
  const found = state.smartContractInterfaces.find((s) => s.smartContractInterfaceId === id);
  if (!found) throw notFound(`smart contract interface ${id} not found`);
  return { smartContractInterface: interfaceJson(state, found) };
}
