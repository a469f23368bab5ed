/**
 * The activities that change the organization's settings and records: set_organization_feature
 * (run once the root quorum approved), smart contract interfaces, the OAuth 2.0 credential,
 * webhook endpoints, user tags and invitations.
 */
import { base58 } from "@scure/base";
import { GrpcCode } from "../../api/grpc-codes.js";
import { isLoopbackHost } from "../../api/url-policy.js";
import { grouped } from "../../text/grouped-number.js";
import { invalidArgument, notFound, SimError } from "../http/sim-error.js";
import { type ActivityContext, findUser, type ParamsOf } from "./activity-context.js";
import type { WebhookEndpointRecord } from "./org-state.js";

/** The documented limit of an ABI or IDL: 400kb. */
export const MAX_SMART_CONTRACT_INTERFACE_BYTES = 400 * 1024;

export function setOrganizationFeature(
  ctx: ActivityContext,
  p: ParamsOf<"set_organization_feature">,
) {
  const existing = ctx.state.features.find((f) => f.name === p.name);
  if (existing) existing.value = p.value;
  else ctx.state.features.push({ name: p.name, value: p.value });
  return { features: ctx.state.features.map((f) => ({ name: f.name, value: f.value })) };
}

export function createSmartContractInterface(
  ctx: ActivityContext,
  p: ParamsOf<"create_smart_contract_interface">,
) {
  const ethereum = p.type === "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM";
  checkContractAddress(p.smartContractAddress, ethereum);
  checkInterface(p.smartContractInterface, ethereum);
  const id = ctx.newId();
  ctx.state.smartContractInterfaces.push({
    smartContractInterfaceId: id,
    smartContractAddress: p.smartContractAddress,
    smartContractInterface: p.smartContractInterface,
    type: p.type,
    label: p.label,
    ...(p.notes !== undefined ? { notes: p.notes } : {}),
    createdAt: ctx.now,
  });
  return { smartContractInterfaceId: id };
}

export function deleteSmartContractInterface(
  ctx: ActivityContext,
  p: ParamsOf<"delete_smart_contract_interface">,
) {
  const list = ctx.state.smartContractInterfaces;
  const index = list.findIndex((s) => s.smartContractInterfaceId === p.smartContractInterfaceId);
  if (index < 0) throw notFound(`smart contract interface ${p.smartContractInterfaceId} not found`);
  list.splice(index, 1);
  return { smartContractInterfaceId: p.smartContractInterfaceId };
}

function checkContractAddress(address: string, ethereum: boolean): void {
  const field = "parameters.smartContractAddress";
  if (ethereum) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      throw invalidArgument(
        `${field} must be an Ethereum address (0x and 40 hex digits) for SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM`,
        field,
      );
    return;
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = base58.decode(address);
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== 32)
    throw invalidArgument(
      `${field} must be a Solana program ID (base58 of 32 bytes) for SMART_CONTRACT_INTERFACE_TYPE_SOLANA`,
      field,
    );
}

function checkInterface(text: string, ethereum: boolean): void {
  const field = "parameters.smartContractInterface";
  const size = Buffer.byteLength(text, "utf8");
  if (size > MAX_SMART_CONTRACT_INTERFACE_BYTES) {
    throw invalidArgument(
      `${field} is ${grouped(size)} bytes; the limit is 400kb (${grouped(MAX_SMART_CONTRACT_INTERFACE_BYTES)} bytes)`,
      field,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw invalidArgument(
      `${field} must be the ${ethereum ? "ABI" : "IDL"} as a JSON string: ${(err as Error).message}`,
      field,
    );
  }
  if (ethereum && !Array.isArray(parsed))
    throw invalidArgument(`${field} must be an Ethereum ABI: a JSON array of entries`, field);
  if (!ethereum && (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)))
    throw invalidArgument(`${field} must be a Solana IDL: a JSON object`, field);
}

export function updateOauth2Credential(
  ctx: ActivityContext,
  p: ParamsOf<"update_oauth2_credential">,
) {
  const credential = ctx.state.oauth2Credentials.find(
    (c) => c.oauth2CredentialId === p.oauth2CredentialId,
  );
  if (!credential) throw notFound(`OAuth 2.0 credential ${p.oauth2CredentialId} not found`);
  credential.provider = p.provider;
  credential.clientId = p.clientId;
  credential.encryptedClientSecret = p.encryptedClientSecret;
  credential.updatedAt = ctx.now;
  return { oauth2CredentialId: credential.oauth2CredentialId };
}

export function updateWebhookEndpoint(
  ctx: ActivityContext,
  p: ParamsOf<"update_webhook_endpoint">,
) {
  const endpoint = ctx.state.webhookEndpoints.find((e) => e.endpointId === p.endpointId);
  if (!endpoint) throw notFound(`webhook endpoint ${p.endpointId} not found`);
  if (p.url !== undefined) checkWebhookUrl(p.url);
  if (p.name !== undefined && !p.name.trim())
    throw invalidArgument("parameters.name must not be empty", "parameters.name");
  if (p.url !== undefined) endpoint.url = p.url;
  if (p.name !== undefined) endpoint.name = p.name;
  if (p.isActive !== undefined) endpoint.isActive = p.isActive;
  endpoint.updatedAt = ctx.now;
  return {
    endpointId: endpoint.endpointId,
    webhookEndpoint: webhookEndpointJson(endpoint, ctx.state.organizationId),
  };
}

function checkWebhookUrl(url: string): void {
  const field = "parameters.url";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument(
      `${field} must be an absolute URL such as https://hooks.example.com/turnkey`,
      field,
    );
  }
  const loopback = isLoopbackHost(parsed.hostname);
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && loopback))
    throw invalidArgument(`${field} must use https (plain http only for localhost)`, field);
}

export function webhookEndpointJson(e: WebhookEndpointRecord, organizationId: string) {
  return {
    endpointId: e.endpointId,
    organizationId,
    url: e.url,
    name: e.name,
    isActive: e.isActive,
    subscriptions: e.subscriptions,
  };
}

export function createUserTag(ctx: ActivityContext, p: ParamsOf<"create_user_tag">) {
  const users = p.userIds.map((id) => findUser(ctx.state, id));
  const name = p.userTagName.trim();
  if (ctx.state.tags.some((t) => t.tagType === "TAG_TYPE_USER" && t.tagName === name)) {
    throw new SimError(
      GrpcCode.ALREADY_EXISTS,
      `a user tag named ${JSON.stringify(name)} already exists`,
    );
  }
  const tagId = ctx.newId();
  ctx.state.tags.push({
    tagId,
    tagName: name,
    tagType: "TAG_TYPE_USER",
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  for (const u of users) if (!u.userTags.includes(tagId)) u.userTags.push(tagId);
  return { userTagId: tagId, userIds: p.userIds };
}

export function createInvitations(ctx: ActivityContext, p: ParamsOf<"create_invitations">) {
  p.invitations.forEach((inv, i) => {
    findUser(ctx.state, inv.senderUserId);
    for (const tag of inv.receiverUserTags) {
      if (!ctx.state.tags.some((t) => t.tagId === tag && t.tagType === "TAG_TYPE_USER")) {
        throw notFound(`parameters.invitations.${i}.receiverUserTags: user tag ${tag} not found`);
      }
    }
  });
  const invitationIds = p.invitations.map((inv) => {
    const invitationId = ctx.newId();
    ctx.state.invitations.push({ invitationId, ...inv, createdAt: ctx.now });
    return invitationId;
  });
  return { invitationIds };
}
