/**
 * The operation table against Turnkey's own swagger (test/fixtures/turnkey-openapi, checked
 * against its SOURCE.json hashes): every path, activity type, intent and result key, request and
 * response field, type and enum of the table agrees with it, and so does the root-quorum rule.
 * A field, path or enum that disagrees fails here, named.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TurnkeyClient } from "../../src/api/client.js";
import { getOperation, operationNames } from "../../src/api/operations.js";
import { activity, openEnum } from "../../src/api/schemas.js";
import { generateKeyPair } from "../../src/api/stamp.js";
import { decodeResponse, validateInput } from "../../src/api/validation.js";
import { scriptedServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";
import { type Comparison, compareSchemas, type Direction } from "../helpers/swagger-agreement.js";
import {
  deref,
  loadSwagger,
  pathSchemas,
  readSource,
  refName,
  type Schema,
  SWAGGER_DIR,
  type SwaggerDoc,
  sha256Of,
  sharedReferenceDir,
  swaggerValidator,
} from "../helpers/turnkey-swagger.js";
import { EXAMPLE_INPUTS } from "./operation-examples.js";

const publicApi = loadSwagger("public_api.swagger.json");
const authProxy = loadSwagger("auth_proxy.swagger.json");

function problemsOf(
  doc: SwaggerDoc,
  direction: Direction,
  table: z.ZodType,
  swagger: Schema,
  path = "",
): string[] {
  const c: Comparison = { doc, direction, problems: [] };
  compareSchemas(c, path, table, swagger);
  return c.problems;
}

/** The result definition that goes with an intent definition: v1FooIntentV2 -> v1FooResult. */
const resultDefinitionOf = (intentDefinition: string) =>
  intentDefinition.replace(/Intent(V\d+)?$/, "Result");

/**
 * Response enums the table keeps closed on purpose, each with why: a value outside them fails the
 * response instead of being shown.
 */
const CLOSED_RESPONSE_ENUMS: Record<string, string> = {
  "response: transactions[].transfers[].direction: a closed enum in a response; an unknown value added later must be kept (open enum)":
    "src/feeds counts and colours IN and OUT only and shows the value unsanitized",
};

const ROOT_QUORUM_SENTENCE = /must be approved by the current root quorum/i;

/** Every disagreement between one operation of the table and the swagger. */
function disagreements(name: (typeof operationNames)[number]): string[] {
  const op = getOperation(name);
  const doc = op.kind === "auth-proxy" ? authProxy : publicApi;
  if (!doc.paths[op.path]) return [`${op.path}: no such path in the swagger`];
  const { request, response } = pathSchemas(doc, op.path);
  const out: string[] = [];
  const tag = (prefix: string, list: string[]) => out.push(...list.map((p) => `${prefix}: ${p}`));
  const description = String(doc.paths[op.path]?.post.description ?? "");
  if (op.kind !== "activity") {
    const body = deref(doc, request);
    const { organizationId: _org, ...fields } = (body.properties ?? {}) as Record<string, Schema>;
    const required = ((body.required ?? []) as string[]).filter((f) => f !== "organizationId");
    tag(
      "request",
      problemsOf(doc, "request", op.request, { type: "object", properties: fields, required }),
    );
    tag("response", problemsOf(doc, "response", op.response, response));
    return out;
  }
  const body = deref(doc, request);
  const typeEnum = body.properties?.type?.enum as string[] | undefined;
  if (JSON.stringify(typeEnum) !== JSON.stringify([op.activityType]))
    out.push(`type: the swagger's is ${JSON.stringify(typeEnum)}, the table's ${op.activityType}`);
  if (!((doc.definitions.v1ActivityType?.enum ?? []) as string[]).includes(op.activityType))
    out.push(`type: ${op.activityType} is not in v1ActivityType`);
  const paramsRef = body.properties?.parameters as Schema;
  tag("parameters", problemsOf(doc, "request", op.params, paramsRef));
  const intents = doc.definitions.v1Intent?.properties as Record<string, Schema>;
  const results = doc.definitions.v1Result?.properties as Record<string, Schema>;
  if (!intents[op.intentKey]) out.push(`intentKey ${op.intentKey}: not a key of v1Intent`);
  else if (refName(intents[op.intentKey] as Schema) !== refName(paramsRef))
    out.push(
      `intentKey ${op.intentKey}: v1Intent has it as ${refName(intents[op.intentKey] as Schema)}, the request's parameters are ${refName(paramsRef)}`,
    );
  const ownResult = resultDefinitionOf(refName(paramsRef));
  if (op.vote) {
    // approve_activity / reject_activity answer with the activity they voted on.
    if (op.resultKey !== "") out.push(`resultKey ${op.resultKey}: a vote has no result of its own`);
    if (Object.values(results).some((r) => refName(r) === ownResult))
      out.push(`the swagger defines ${ownResult}, the table has no result for this vote`);
  } else if (!results[op.resultKey]) {
    out.push(`resultKey ${op.resultKey}: not a key of v1Result`);
  } else {
    const resultRef = results[op.resultKey] as Schema;
    if (refName(resultRef) !== ownResult)
      out.push(
        `resultKey ${op.resultKey}: v1Result has it as ${refName(resultRef)}, expected ${ownResult}`,
      );
    tag(`result ${op.resultKey}`, problemsOf(doc, "response", op.result, resultRef));
  }
  const takesAppProofs = "generateAppProofs" in (body.properties ?? {});
  if (takesAppProofs !== op.appProofs)
    out.push(
      `appProofs: the table says ${op.appProofs}, the swagger's request ${takesAppProofs ? "has" : "has no"} generateAppProofs`,
    );
  const needsQuorum = ROOT_QUORUM_SENTENCE.test(description);
  if (needsQuorum !== (op.approval === "root-quorum"))
    out.push(
      `approval: the table says ${op.approval}, the swagger's description ${needsQuorum ? "says it must be approved by the root quorum" : "says nothing of the root quorum"}`,
    );
  return out;
}

describe("the swagger files", () => {
  it("are the ones SOURCE.json names, byte for byte, and match the shared reference copy", () => {
    const source = readSource();
    for (const [file, { sha256 }] of Object.entries(source.files)) {
      expect(sha256Of(join(SWAGGER_DIR, file))).toBe(sha256);
    }
    const shared = sharedReferenceDir();
    if (shared) {
      for (const [file, { sha256 }] of Object.entries(source.files)) {
        if (existsSync(join(shared, file))) expect(sha256Of(join(shared, file))).toBe(sha256);
      }
    }
    expect(publicApi.swagger).toBe("2.0");
    expect(authProxy.swagger).toBe("2.0");
  });
});

describe("the operation table agrees with Turnkey's swagger", () => {
  for (const name of operationNames) {
    it(`${name}: path, type, intent and result keys, fields, types, enums and approval rule`, () => {
      expect(disagreements(name).filter((p) => !(p in CLOSED_RESPONSE_ENUMS))).toEqual([]);
    });
  }

  it("the activity envelope: every field, the status and type enums, votes with the whole user", () => {
    expect(
      problemsOf(publicApi, "response", activity, { $ref: "#/definitions/v1Activity" }),
    ).toEqual([]);
  });
});

describe("what the client sends", () => {
  const client = new TurnkeyClient({
    baseUrl: "https://api.turnkey.example",
    organizationId: "org-example",
    apiKey: generateKeyPair(),
    authProxyUrl: "https://authproxy.turnkey.example",
    authProxyConfigId: "config-example",
  });
  const validators = {
    public: swaggerValidator(publicApi, { closed: true }),
    authProxy: swaggerValidator(authProxy, { closed: true }),
  };
  for (const name of operationNames) {
    it(`${name}: the body it builds is a valid request of the swagger, with no undefined field`, async () => {
      const op = getOperation(name);
      const doc = op.kind === "auth-proxy" ? authProxy : publicApi;
      const validator = op.kind === "auth-proxy" ? validators.authProxy : validators.public;
      const { body } = await client.buildRequest(name, EXAMPLE_INPUTS[name], {
        generateAppProofs: op.kind === "activity" && op.appProofs,
      });
      expect(validator.errors(pathSchemas(doc, op.path).request, JSON.parse(body))).toEqual([]);
    });
  }
});

describe("the agreement check itself", () => {
  const v1Vote = { $ref: "#/definitions/v1Vote" };
  const vote = (activity.shape.votes as z.ZodArray<z.ZodType>).element;

  it("names a missing field, a field the swagger does not define, and enums that differ", () => {
    const wrong = z.looseObject({
      ...(vote as z.ZodObject).shape,
      scheme: undefined as never,
      weight: z.number(),
      selection: openEnum(["VOTE_SELECTION_APPROVED", "VOTE_SELECTION_MAYBE"]),
    });
    const shape = { ...wrong.shape } as Record<string, z.ZodType>;
    delete shape.scheme;
    expect(problemsOf(publicApi, "response", z.looseObject(shape), v1Vote)).toEqual([
      "selection: enum differs: missing VOTE_SELECTION_REJECTED; not in the swagger VOTE_SELECTION_MAYBE",
      "scheme: in the swagger, missing from the table",
      "weight: in the table, not defined by the swagger",
    ]);
  });

  it("names a closed enum in a response and a required field the client would not send", () => {
    const closedStatus = z.looseObject({ status: z.enum(["CONFIRMED", "FINALIZED"]) });
    const item = publicApi.definitions.v1SolTransactionHistoryItem?.properties?.status as Schema;
    expect(
      problemsOf(publicApi, "response", closedStatus, {
        type: "object",
        properties: { status: item },
      }),
    ).toEqual([
      "status: the table demands it, the swagger does not promise it",
      "status: a closed enum in a response; an unknown value added later must be kept (open enum)",
    ]);
    const optionalName = z.strictObject({ name: z.string().optional(), value: z.string() });
    expect(
      problemsOf(publicApi, "request", optionalName, {
        $ref: "#/definitions/v1SetOrganizationFeatureIntent",
      }),
    ).toEqual([
      "name: the swagger requires it, the table sends it optionally",
      "name: the swagger has an enum (11 values), the table a string",
    ]);
  });
});

describe("enum values the swagger does not list yet", () => {
  const later = {
    activity: {
      id: "act-later",
      organizationId: "org-later",
      status: "ACTIVITY_STATUS_QUEUED_FOR_AUDIT",
      type: "ACTIVITY_TYPE_TELEPORT_FUNDS",
      intent: { teleportFundsIntent: { to: "moon" } },
      result: {},
      votes: [
        {
          id: "v1",
          userId: "u1",
          activityId: "act-later",
          selection: "VOTE_SELECTION_ABSTAINED",
        },
      ],
      fingerprint: "sha256:later",
      canApprove: false,
      canReject: false,
      createdAt: { seconds: "1790000000", nanos: "0" },
      updatedAt: { seconds: "1790000001", nanos: "0" },
    },
  };

  it("are kept as they came, not an error (status, type, vote selection)", () => {
    const decoded = decodeResponse("get_activity", JSON.stringify(later)) as typeof later;
    expect(decoded.activity.status).toBe("ACTIVITY_STATUS_QUEUED_FOR_AUDIT");
    expect(decoded.activity.type).toBe("ACTIVITY_TYPE_TELEPORT_FUNDS");
    expect(decoded.activity.votes[0]?.selection).toBe("VOTE_SELECTION_ABSTAINED");
  });

  it("are printed by tvcwatch call, exit 0", async () => {
    const server = await scriptedServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(later));
    });
    try {
      const dir = mkdtempSync(join(tmpdir(), "tvcwatch-enum-"));
      const config = join(dir, "config.json");
      const key = generateKeyPair();
      writeFileSync(
        config,
        JSON.stringify({
          baseUrl: server.url,
          organizationId: "org-later",
          apiPublicKey: key.publicKey,
          apiPrivateKey: key.privateKey,
        }),
        { mode: 0o600 },
      );
      const r = await runCli([
        "--config",
        config,
        "call",
        "get_activity",
        "--body",
        '{"activityId":"act-later"}',
      ]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const printed = JSON.parse(r.stdout);
      expect(printed.activity.status).toBe("ACTIVITY_STATUS_QUEUED_FOR_AUDIT");
      expect(printed.activity.type).toBe("ACTIVITY_TYPE_TELEPORT_FUNDS");
    } finally {
      await server.close();
    }
  });

  it("in a request are refused before anything is sent, naming the field", () => {
    expect(() =>
      validateInput("list_activities", { filterByType: ["ACTIVITY_TYPE_TELEPORT_FUNDS"] }),
    ).toThrow(/filterByType\.0/);
    expect(
      validateInput("list_activities", { filterByType: ["ACTIVITY_TYPE_SIGN_TRANSACTION_V2"] }),
    ).toEqual({ filterByType: ["ACTIVITY_TYPE_SIGN_TRANSACTION_V2"] });
  });
});
