// What the simulator's organization costs per request, through our client over loopback: an
// activity that changes the state (create_user_tag), in memory and with --state (an fsync'd
// atomic rewrite of the file per activity), and one that encrypts (export_wallet, HPKE plus the
// enclave signature), against the baseline of a stamped query (whoami) in the same run.

import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient } from "../dist/api/client.js";
import { startSimulator } from "../dist/sim/server.js";

const N = 400;

async function measure(sim, label, op) {
  const cfg = sim.config;
  const client = new TurnkeyClient({
    baseUrl: cfg.baseUrl,
    organizationId: cfg.organizationId,
    apiKey: { publicKey: cfg.apiPublicKey, privateKey: cfg.apiPrivateKey },
    retries: 0,
  });
  for (let i = 0; i < 20; i++) await op(client, `warm-${label}-${i}`);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await op(client, `${label}-${i}`);
  return (performance.now() - t0) / N;
}

const whoami = (client) => client.call("whoami", {});
const createTag = (client, name) =>
  client.call("create_user_tag", { userTagName: name, userIds: [] });

const memory = await startSimulator({ port: 0, seed: 1 });
const dir = mkdtempSync(join(tmpdir(), "tvcwatch-bench-state-"));
const statePath = join(dir, "org.json");
const saved = await startSimulator({ port: 0, seed: 1, statePath });
const target = generateP256KeyPair().publicKeyUncompressed;
const walletId = memory.service.state.wallets[0].walletId;
const exportWallet = (client) =>
  client.call("export_wallet", { walletId, targetPublicKey: target });

const base = await measure(memory, "base", whoami);
const inMemory = await measure(memory, "mem", createTag);
const onDisk = await measure(saved, "disk", createTag);
const exported = await measure(memory, "export", exportWallet);
const size = statSync(statePath).size;
await memory.close();
await saved.close();

const row = (name, ms) =>
  `${name.padEnd(42)} ${ms.toFixed(2).padStart(7)} ms  ${(ms / base).toFixed(2).padStart(6)}x whoami`;
console.log(`${N} sequential requests each, through our client over loopback`);
console.log(row("whoami (baseline: a stamped query)", base));
console.log(row("create_user_tag, in memory", inMemory));
console.log(row("create_user_tag, --state (fsync + rename)", onDisk));
console.log(row("export_wallet (HPKE + enclave signature)", exported));
console.log(
  `state file after ${N + 20} activities: ${(size / 1024).toFixed(0)} KiB (rewritten whole each time)`,
);
