/**
 * Every error a user can cause says where (file, line, field) and what to do.
 * `code` is stable for scripts; `hint` is the "what to do" part.
 */
export class RamemError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly where: string | undefined;

  constructor(code: string, message: string, opts: { hint?: string; where?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "RamemError";
    this.code = code;
    this.hint = opts.hint;
    this.where = opts.where;
  }

  /** One paragraph for a terminal: where, what, and what to do. */
  describe(): string {
    const lines = [`${this.where ? `${this.where}: ` : ""}${this.message}`];
    if (this.hint) lines.push(`  hint: ${this.hint}`);
    return lines.join("\n");
  }
}
