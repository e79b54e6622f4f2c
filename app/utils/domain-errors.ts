import { stringField } from "./unknown-values";

/**
 * What a service throws when it refuses (docs/decisions/0024): typed errors that say why, never an
 * HTTP answer. The routes turn them into one: `apiAnswer` and `screenAnswer` in http.server.ts.
 * `status` is the kind's place in the API's documented answers, so the mapping stays one table.
 */
export type FieldErrors = Record<string, string>;

interface Options {
  /** Messages per field (the API's `errors` object; a screen shows them on its fields). */
  fields?: FieldErrors;
  /**
   * The message is also what the client shows as the failed request's reason (the upload widget
   * shows "Companion request failed: <reason>"); the API answer carries it as the reason phrase.
   */
  shownAsReason?: boolean;
  /** When trying again may succeed, in seconds (Retry-After). */
  retryAfterSeconds?: number;
}

export abstract class DomainError extends Error {
  abstract readonly status: number;
  readonly fields?: FieldErrors;
  readonly shownAsReason: boolean;
  readonly retryAfterSeconds?: number;

  constructor(message: string, options: Options = {}) {
    super(message);
    this.name = new.target.name;
    this.fields = options.fields;
    this.shownAsReason = options.shownAsReason ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The caller is not who they claim: wrong credentials, a wrong or missing second factor, an expired sign-in step. */
export class Unauthenticated extends DomainError {
  readonly status = 401;
}

/** Too many tries: the caller waits `retryAfterSeconds` (the sign-in throttle). */
export class TooMany extends DomainError {
  readonly status = 429;
}

/** Not there, or not the caller's (another account's id is never told apart from a missing one). */
export class NotFound extends DomainError {
  readonly status = 404;
}

/** The caller may not do this. */
export class Forbidden extends DomainError {
  readonly status = 403;
}

/** The request collides with what is stored (a state, a name, a key already used, or one still in progress). */
export class Conflict extends DomainError {
  readonly status = 409;
}

/**
 * The input is refused: wrong (400, the default), too large (413), of a type not taken (415) or
 * not processable (422).
 */
const INVALID_STATUS = { invalid: 400, tooLarge: 413, unsupportedType: 415, unprocessable: 422 } as const;

export class Invalid extends DomainError {
  readonly status: 400 | 413 | 415 | 422;

  constructor(message: string, options: Options & { kind?: "invalid" | "tooLarge" | "unsupportedType" | "unprocessable" } = {}) {
    super(message, options);
    this.status = INVALID_STATUS[options.kind ?? "invalid"];
  }
}

/** Not now: a dependency is away or the caller must wait; `retryAfterSeconds` says how long. */
export class Unavailable extends DomainError {
  readonly status = 503;
}

/**
 * The database is unreachable: what any model call throws during an outage (app/models/define-model),
 * answered as every outage is, 503 with Retry-After (http.server.ts's `apiAnswer`).
 */
export class DatabaseUnavailable extends Unavailable {
  constructor() {
    super("Service temporarily unavailable", { retryAfterSeconds: 2 });
  }
}

/**
 * A write collided on a unique key (an id another account's import claimed, a name taken meanwhile):
 * 409, never 500. It keeps the driver's `code: 11000`, so the writes that expect a duplicate (a lock,
 * an idempotency key, a username) still recognise it.
 */
export class DuplicateKey extends Conflict {
  readonly code = 11000;

  constructor() {
    super("This record conflicts with one already stored; please try again");
  }
}

/** The same refusal told about one field of the request (a reference in the body that was refused). */
export function onField<E extends DomainError>(error: E, field: string): E {
  const copy = Object.create(Object.getPrototypeOf(error)) as E;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(error));
  Object.defineProperties(copy, { fields: { value: { [field]: error.message } }, shownAsReason: { value: false } });
  return copy;
}

/**
 * A refusal from below: a model's or service's typed error (a database outage's 503, a duplicate
 * key's 409, a deleted owner's 401: docs/decisions/0016), or a Response an HTTP helper threw.
 */
export const isRefusal = (error: unknown): error is DomainError | Response => error instanceof DomainError || error instanceof Response;

/** The message of a refusal (a Response's JSON `{message}`). */
export async function refusalMessage(error: DomainError | Response): Promise<string> {
  if (error instanceof DomainError) return error.message;
  return stringField(await error.clone().json(), "message") ?? "";
}

/**
 * The caller's precondition failed: it wrote from a version that is no longer the stored one
 * (`If-Match`, the Edit Estimate form's revision). `current` is the version as it now stands (the
 * answer's body and ETag), so the caller sees what changed and nothing is overwritten.
 */
export class Stale<T extends { revision: number } = { revision: number }> extends DomainError {
  readonly status = 412;

  constructor(
    message: string,
    readonly current: T,
  ) {
    super(message);
  }
}

/** The write was refused for lack of disk space before it changed anything (docs/decisions/0038). */
export class DiskFull extends DomainError {
  readonly status = 507;
}
