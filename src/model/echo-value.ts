/** How much of a value an error message quotes back. */
export const ECHO_MAX_CHARS = 200;

/**
 * A caller's value quoted in an error message: JSON-quoted (so line breaks
 * and quotes inside it stay visible) and cut to its first ECHO_MAX_CHARS
 * characters, saying how long it was. A 10 MB value must not come back as a
 * 10 MB message, into a log, a terminal or a model's context.
 */
export function echoValue(value: string): string {
  if (value.length <= ECHO_MAX_CHARS) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, ECHO_MAX_CHARS))}… (${value.length.toLocaleString("en-US")} characters)`;
}
