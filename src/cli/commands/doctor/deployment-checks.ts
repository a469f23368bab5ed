/** Which of the organization's TVC deployments can be tailed, and whether the one asked for can. */
import type { Sourced } from "../../../config/setting-sources.js";
import { originOf } from "../../../config/setting-sources.js";
import type { DeploymentChoice } from "../../../feeds/deployment-list.js";
import type { CheckResult } from "./check.js";
import { fail, pass } from "./check.js";

export function tvcCheck(choices: DeploymentChoice[]): CheckResult {
  const apps = new Set(choices.map((c) => c.appId)).size;
  const tailable = choices.filter((c) => c.tailable);
  const data = {
    apps,
    deployments: choices.map((c) => ({
      appId: c.appId,
      appName: c.appName,
      deploymentId: c.deploymentId,
      debugMode: c.tailable,
      live: c.live,
      ...(c.reason ? { reason: c.reason } : {}),
    })),
  };
  const counts = `${apps} app${apps === 1 ? "" : "s"}, ${choices.length} deployment${choices.length === 1 ? "" : "s"}`;
  if (choices.length === 0) {
    return fail(
      "tvc",
      "TVC deployments",
      "the organization has no TVC deployments: nothing to tail",
      "check the organization ID; deploy the app to TVC first",
      data,
    );
  }
  if (tailable.length === 0) {
    return fail(
      "tvc",
      "TVC deployments",
      `${counts}; none in debug mode, so none can be tailed`,
      "deploy the app with debug mode on: only debug-mode deployments serve their logs",
      data,
    );
  }
  const list = tailable
    .map((c) => `${c.deploymentId} (${c.appName}${c.live ? ", live" : ""})`)
    .join(", ");
  return pass("tvc", "TVC deployments", `${counts}; in debug mode, can be tailed: ${list}`, data);
}

export function deploymentCheck(wanted: Sourced<string>, choices: DeploymentChoice[]): CheckResult {
  const title = "tail deployment";
  const found = choices.find((c) => c.deploymentId === wanted.value);
  const others = choices
    .filter((c) => c.tailable)
    .map((c) => c.deploymentId)
    .join(", ");
  const pick = others ? `pick one that can be tailed: ${others}` : "no deployment can be tailed";
  if (!found) {
    return fail(
      "deployment",
      title,
      `${wanted.value} is not a deployment of this organization's TVC apps (${originOf(wanted)})`,
      `check the ID, or ${pick}`,
    );
  }
  if (!found.tailable) {
    return fail(
      "deployment",
      title,
      `${wanted.value} cannot be tailed: ${found.reason ?? "not in debug mode"} (app ${found.appName})`,
      `redeploy it with debug mode on, or ${pick}`,
    );
  }
  return pass(
    "deployment",
    title,
    `${wanted.value} is in debug mode: it can be tailed (app ${found.appName}${found.live ? ", live" : ""})`,
  );
}
