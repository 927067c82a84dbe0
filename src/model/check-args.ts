import { RamemError } from "./errors.js";
import { describeValue } from "./echo-value.js";

/**
 * The argument checks of the public API (Memory, openMemory and the building
 * blocks src/index.ts exports beside them) for callers in
 * plain JavaScript, where nothing stops `update(undefined, …)` or a Date as a
 * namespace: such a call must fail as a RamemError naming the argument, before
 * anything is read or stored, not as a TypeError from deep inside (or, worse,
 * succeed with "undefined" stored as an id). The methods that check are
 * async, so a refusal is a rejected promise like every other failure of the
 * call, never a synchronous throw; a building block that returns a promise
 * without being async is made async for that.
 */

/** What an argument must be; a trailing "?" lets it be undefined. */
export type ArgKind =
  | "string"
  | "string?"
  | "object"
  | "object?"
  | "date"
  | "date?"
  | "boolean"
  | "boolean?"
  | "number"
  | "number?"
  | "function"
  | "function?"
  | "array"
  | "string|object?";

const EXPECTED: Record<ArgKind, string> = {
  string: "a string",
  "string?": "a string",
  object: "an object",
  "object?": "an object",
  date: "a valid Date",
  "date?": "a valid Date",
  boolean: "true or false",
  "boolean?": "true or false",
  number: "a number",
  "number?": "a number",
  function: "a function",
  "function?": "a function",
  array: "a list",
  "string|object?": "a name (string) or an object",
};

function fits(value: unknown, kind: ArgKind): boolean {
  if (kind.endsWith("?") && value === undefined) return true;
  switch (kind) {
    case "string":
    case "string?":
      return typeof value === "string";
    case "object":
    case "object?":
      return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
    case "date":
    case "date?":
      return value instanceof Date && !Number.isNaN(value.getTime());
    case "boolean":
    case "boolean?":
      return typeof value === "boolean";
    case "number":
    case "number?":
      return typeof value === "number";
    case "function":
    case "function?":
      return typeof value === "function";
    case "array":
      return Array.isArray(value);
    case "string|object?":
      return typeof value === "string" || fits(value, "object");
  }
}

/**
 * Checks each named argument against its kind, in order; throws BAD_ARGUMENT
 * with `where` the argument's name for the first that does not fit.
 * `args` maps a name to [value, kind]; `call` names the method for the hint.
 */
export function checkArgs(call: string, args: Record<string, readonly [unknown, ArgKind]>): void {
  for (const [where, [value, kind]] of Object.entries(args)) {
    if (fits(value, kind)) continue;
    throw new RamemError("BAD_ARGUMENT", `${where} must be ${EXPECTED[kind]}${kind.endsWith("?") ? " (or left out)" : ""}, got ${describeValue(value)}`, {
      where,
      hint: `check the arguments of ${call} (see its TypeScript signature); nothing was stored`,
    });
  }
}

/**
 * An options argument: undefined (read as {}) or a plain object, whose listed
 * fields are then checked as checkArgs does (`where` is "<field>"). Returns
 * the options, so a method can go on reading them.
 */
export function checkOptions<T extends object>(call: string, options: T | undefined, fields: Readonly<Record<string, ArgKind>>, where = "options"): T {
  checkObject(call, where, options, "object?", fields, (field) => field);
  return (options ?? {}) as T;
}

/**
 * An object argument of a building block (runRecall's request, askMemory's
 * options): checked as `kind`, then its listed fields as checkArgs does, each
 * `where` "<argument>.<field>" ("request.query"), since such a caller writes
 * the whole object and several blocks take two that share field names.
 */
export function checkFields(call: string, where: string, value: unknown, kind: "object" | "object?", fields: Readonly<Record<string, ArgKind>>): void {
  checkObject(call, where, value, kind, fields, (field) => `${where}.${field}`);
}

function checkObject(call: string, where: string, value: unknown, kind: "object" | "object?", fields: Readonly<Record<string, ArgKind>>, nameOf: (field: string) => string): void {
  checkArgs(call, { [where]: [value, kind] });
  const given = (value ?? {}) as Record<string, unknown>;
  const args: Record<string, readonly [unknown, ArgKind]> = {};
  for (const [field, fieldKind] of Object.entries(fields) as Array<[string, ArgKind]>) args[nameOf(field)] = [given[field], fieldKind];
  checkArgs(call, args);
}
