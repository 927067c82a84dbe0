/**
 * Every error a user can cause says where (file, line, field) and what to do.
 * `code` is stable for scripts; `hint` is the "what to do" part.
 */
export class RamemError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly where: string | undefined;

  constructor(code: string, message: string, opts: { hint?: string; where?: string; cause?: unknown } = {}) {
    super(bounded(message), opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "RamemError";
    this.code = code;
    this.hint = opts.hint === undefined ? undefined : bounded(opts.hint);
    this.where = opts.where === undefined ? undefined : bounded(opts.where);
  }

  /** One paragraph for a terminal: where, what, and what to do. */
  describe(): string {
    const lines = [`${this.where ? `${this.where}: ` : ""}${this.message}`];
    if (this.hint) lines.push(`  hint: ${this.hint}`);
    return lines.join("\n");
  }
}

/**
 * The net under echoValue (echo-value.ts), which quotes a caller's value cut
 * to 200 characters: a message that still grew past this (a value echoed
 * some other way) is cut, so no error carries a 10 MB value into a log, a
 * terminal, an HTTP body or a model's context.
 */
export const MAX_ERROR_TEXT_CHARS = 2_000;

function bounded(text: string): string {
  if (text.length <= MAX_ERROR_TEXT_CHARS) return text;
  return `${text.slice(0, MAX_ERROR_TEXT_CHARS)}… (${(text.length - MAX_ERROR_TEXT_CHARS).toLocaleString("en-US")} more characters cut)`;
}
