/** How much of a value an error message quotes back. */
export const ECHO_MAX_CHARS = 200;

/**
 * A caller's value quoted in an error message: JSON-quoted (so line breaks
 * and quotes inside it stay visible) and cut to its first ECHO_MAX_CHARS
 * characters, saying how long it was. A 10 MB value must not come back as a
 * 10 MB message, into a log, a terminal or a model's context.
 *
 * Typed `string`, but a JavaScript caller can pass anything where a string is
 * typed: a value that is no string is named by its kind (describeValue), so
 * building the error never throws a TypeError of its own.
 */
export function echoValue(value: string): string {
  if (typeof value !== "string") return describeValue(value);
  if (value.length <= ECHO_MAX_CHARS) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, ECHO_MAX_CHARS))}… (${value.length.toLocaleString("en-US")} characters)`;
}

/**
 * What a value is, for "expected a string, got …": never its whole content
 * (an object may be huge or throw from toString), and never a throw itself.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return `the string ${echoValue(value)}`;
    case "number":
    case "bigint":
    case "boolean":
      return `the ${typeof value} ${String(value)}`;
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
  }
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value instanceof Date) return "a Date";
  return "an object";
}
