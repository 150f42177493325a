/**
 * The library's errors. Thrown only for a caller's mistake or an unusable
 * setup; everything else (an unparseable file, an unresolved import) is a
 * {@link Diagnostic} and the run goes on. Messages read
 * `<where>: <what> (<how to fix>)`.
 */

export type ErrorCode = "usage" | "root" | "config" | "io" | "timeout" | "internal";

/** Base class: every error the library throws on purpose. */
export class GraphRetrieveError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GraphRetrieveError";
    this.code = code;
  }
}

/** The caller asked for something that cannot work (bad option, empty task). CLI exit 2. */
export class UsageError extends GraphRetrieveError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("usage", message, options);
    this.name = "UsageError";
  }
}

/** The root is missing, not a folder, or unreadable. */
export class RootError extends GraphRetrieveError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("root", message, options);
    this.name = "RootError";
  }
}

/** True for errors the library threw on purpose (their message is fit to show as is). */
export function isKnownError(error: unknown): error is GraphRetrieveError {
  return error instanceof GraphRetrieveError;
}
