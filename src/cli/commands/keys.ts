import { Command, Option } from "commander";
import { resolveStoreLocation } from "../store-location.js";
import { runAction } from "../shared.js";
import { openApiKeyStore } from "../../store/open-api-key-store.js";
import { ROLES, type ApiKeyRecord, type ApiKeyStore, type Role } from "../../store/api-key-contract.js";
import { createApiKey } from "../../server/auth/create-api-key.js";
import { RamemError } from "../../model/errors.js";
import { echoValue } from "../../model/echo-value.js";
import { cliOut } from "../io.js";
import { checkKeyName, terminalText } from "./keys-display.js";

interface KeysOptions {
  db?: string;
  store?: string;
  json?: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function withDb(cmd: Command): Command {
  return cmd
    .option("--db <path>", "SQLite file of the store the server uses; keys live in it (default: $RAMEM_DB, else ./ramem.db)")
    .option("--store <location>", "or the server's store location: a postgres:// URL or a SQLite file (default: $RAMEM_STORE)")
    .option("--json", "machine-readable output on stdout");
}

async function withKeys<T>(opts: KeysOptions, body: (keys: ApiKeyStore) => Promise<T>): Promise<T> {
  const keys = await openApiKeyStore(resolveStoreLocation(opts));
  try {
    return await body(keys);
  } finally {
    await keys.close();
  }
}

/** What may be shown of a key: everything but its hash. */
function publicView(k: ApiKeyRecord) {
  return { id: k.id, name: k.name, role: k.role, namespaces: k.namespaces, createdAt: k.createdAt, revokedAt: k.revokedAt };
}

export function keysCommand(): Command {
  const create = withDb(
    new Command("create")
      .description("Create an API key bound to namespaces with a role; prints the secret once (only its hash is stored).")
      .requiredOption("--name <name>", "a label for the key, e.g. support-bot")
      .addOption(new Option("--role <role>", "read: recall, list, export; write: also ingest, append, import, delete units/sessions; admin: also delete namespaces").choices(ROLES as string[]).makeOptionMandatory())
      .requiredOption("--namespace <ns>", "namespace the key may touch (repeat for more)", collect),
  ).action(async (opts: KeysOptions & { name: string; role: Role; namespace: string[] }) =>
    runAction(opts.json, async () => {
      checkKeyName(opts.name);
      const { record, secret } = await withKeys(opts, (keys) => createApiKey(keys, { name: opts.name, role: opts.role, namespaces: opts.namespace }));
      if (opts.json) {
        cliOut(`${JSON.stringify({ ...publicView(record), secret })}\n`);
        return;
      }
      cliOut(
        `created ${record.id} (${record.role} on ${record.namespaces.join(", ")})\n\n  ${secret}\n\n` +
          "This secret is shown once and cannot be recovered; store it now. Send it as: Authorization: Bearer <secret>\n",
      );
    }),
  );

  const list = withDb(new Command("list").description("List API keys (never their secrets).")).action(async (opts: KeysOptions) =>
    runAction(opts.json, async () => {
      const all = await withKeys(opts, (keys) => keys.listKeys());
      if (opts.json) {
        cliOut(`${JSON.stringify({ keys: all.map(publicView) })}\n`);
        return;
      }
      if (!all.length) {
        cliOut("no API keys: the server runs open on loopback (until the first key is created) and refuses other hosts. Create one with `ramem keys create`.\n");
        return;
      }
      for (const k of all) {
        cliOut(
          // Names are stored as given (by older versions, or straight through the key store): escaped, so one key is one line.
          `${k.id}  ${terminalText(k.name).padEnd(20)} ${k.role.padEnd(5)}  ${k.namespaces.join(",").padEnd(24)} created ${k.createdAt}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ""}\n`,
        );
      }
    }),
  );

  const revoke = withDb(new Command("revoke").description("Revoke an API key by its id (see `ramem keys list`); it stops working at once.").argument("<id>", "key id, e.g. key_3f9a1c2b4d5e")).action(
    async (id: string, opts: KeysOptions) =>
      runAction(opts.json, async () => {
        const { ok, active } = await withKeys(opts, async (keys) => {
          const revoked = await keys.revokeKey(id, new Date().toISOString());
          return { ok: revoked, active: (await keys.listKeys()).filter((k) => k.revokedAt === null).length };
        });
        if (!ok) throw new RamemError("KEY_NOT_FOUND", `no active key ${echoValue(id)}`, { hint: "see the ids with `ramem keys list`" });
        if (opts.json) {
          cliOut(`${JSON.stringify({ revoked: id, activeKeys: active })}\n`);
          return;
        }
        cliOut(`revoked ${id}\n`);
        if (active === 0) {
          cliOut(
            "No active key remains: a server on this store now refuses every request (401) until a key is created (`ramem keys create`). " +
              "Revoking never reopens it; to run open on loopback on purpose, restart it with `ramem serve --open`.\n",
          );
        }
      }),
  );

  return new Command("keys").description("Manage the server's API keys: create, list, revoke.").addCommand(create).addCommand(list).addCommand(revoke);
}
