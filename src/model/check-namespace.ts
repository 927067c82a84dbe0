import { NamespaceName } from "./conversation.js";
import { RamemError } from "./errors.js";
import { describeValue, echoValue } from "./echo-value.js";

/**
 * A namespace name as every face accepts it, else BAD_NAMESPACE (a typo is an error, not an empty result).
 * Its own module so a command that opens only the store (`ramem stats`) checks names without loading Memory.
 */
export function checkNamespace(namespace: unknown): string {
  const r = NamespaceName.safeParse(namespace);
  if (r.success) return r.data;
  throw new RamemError("BAD_NAMESPACE", `${typeof namespace === "string" ? echoValue(namespace) : describeValue(namespace)} is not a namespace name: ${r.error.issues[0]?.message ?? "invalid"}`, {
    where: "namespace",
    hint: "a namespace is 1 to 128 letters, digits and . _ : - starting with a letter or digit",
  });
}
