// Typed parse results: parsers of user data return these instead of throwing. The one definition
// every package shares (this leaf imports nothing of ours).

/** Where in the input a problem is. `line` and `col` are 1-based; `offset` is 0-based. */
export interface SourceLocation {
  file?: string;
  line?: number;
  col?: number;
  offset?: number;
}

/** A problem in the input; each parser declares its codes `as const` and narrows `C` to them. */
export interface ParseError<C extends string = string> extends SourceLocation {
  /** Stable machine-readable code, e.g. `square-out-of-range`. */
  code: C;
  message: string;
}

export type Result<T, E = ParseError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });

/** `file:line:col: message` — how errors are shown to people. */
export function formatLocated(e: ParseError): string {
  const where = [e.file, e.line, e.col].filter((x) => x !== undefined).join(':');
  return where ? `${where}: ${e.message}` : e.message;
}
