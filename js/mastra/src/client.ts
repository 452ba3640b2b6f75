/**
 * The HTTP client of `summscore serve`: `POST /v1/score` with one case, the result as JSON.
 *
 * Holds no scoring logic: the service (Python) decides every number.
 */

/** Preset options a request may set (where the server allows them). */
export interface ScoreOptions {
  scale?: number;
  maxQuestions?: number;
  version?: '1.x' | '0.x';
  include_reason?: boolean;
}

export interface ScoreRequest {
  source: string | string[];
  summary: string;
  assessment_questions?: string[];
  id?: unknown;
  options?: ScoreOptions;
}

export interface ClaimVerdict {
  claim: string;
  verdict: string;
  reason: string | null;
  supported: boolean;
  /**
   * How much of the claim the source carries, 0 to 1: given by the offline judge
   * (`judge: "lexical"`) only, whose deepeval-rule alignment is the mean support; null (or
   * absent, from an older service) for LLM judges.
   */
  support?: number | null;
}

export interface AssessmentAnswer {
  question: string;
  source_answer: string | null;
  summary_answer: string;
  covered: boolean;
}

/** `SummaryResult.to_dict()` of the Python core, plus the request's `id`. */
export interface SummaryResult {
  score: number | null;
  preset: string;
  prompt_set: string;
  judge: string;
  alignment_score: number | null;
  coverage_score: number | null;
  claims: ClaimVerdict[];
  assessment: AssessmentAnswer[];
  reason: string | null;
  error: string | null;
  warnings: string[];
  usage: Record<string, number | null>;
  id?: unknown;
  [key: string]: unknown;
}

/** Where the service runs and how to reach it. */
export interface ServiceOptions {
  /** Base URL of `summscore serve` (default: env SUMMSCORE_URL, else http://127.0.0.1:8000). */
  url?: string;
  /** Bearer token, when the service was started with --token-env (default: env SUMMSCORE_TOKEN). */
  token?: string;
  /** Milliseconds to wait for one scoring request, answer included (default 120000); past it the call fails with type `timeout`. */
  timeoutMs?: number;
  /** The fetch to use (default: the global fetch). */
  fetch?: typeof fetch;
}

/** A failed call of the service: HTTP status, the service's error type and the field at fault. */
export class SummscoreServiceError extends Error {
  readonly status: number | undefined;
  readonly type: string;
  readonly field: string | undefined;
  readonly retryAfter: number | undefined;

  constructor(
    message: string,
    options: { status?: number; type: string; field?: string; retryAfter?: number; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = 'SummscoreServiceError';
    this.status = options.status;
    this.type = options.type;
    this.field = options.field;
    this.retryAfter = options.retryAfter;
  }
}

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Milliseconds one scoring request may take unless `timeoutMs` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** What `AbortSignal.timeout` rejects a fetch with (a DOMException named TimeoutError). */
function isTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TimeoutError';
}

/** The service URL without a trailing slash. */
export function serviceUrl(options: ServiceOptions): string {
  return (options.url ?? env('SUMMSCORE_URL') ?? 'http://127.0.0.1:8000').replace(/\/+$/, '');
}

/** Score one case: the service's result, or a {@link SummscoreServiceError}. */
export async function scoreSummary(options: ServiceOptions, request: ScoreRequest): Promise<SummaryResult> {
  const url = `${serviceUrl(options)}/v1/score`;
  const token = options.token ?? env('SUMMSCORE_TOKEN');
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timedOut = (cause: unknown) =>
    new SummscoreServiceError(
      `summscore serve at ${url} did not answer within ${timeoutMs} ms (timeoutMs); a long source or a slow judge may need more`,
      { type: 'timeout', cause },
    );
  let response: Response;
  try {
    response = await doFetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (cause) {
    if (isTimeout(cause)) throw timedOut(cause);
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new SummscoreServiceError(`summscore serve is not reachable at ${url} (${reason}); start it with "summscore serve"`, {
      type: 'unreachable',
      cause,
    });
  }
  let text: string;
  try {
    text = await response.text(); // the timeout covers the body too
  } catch (cause) {
    if (isTimeout(cause)) throw timedOut(cause);
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new SummscoreServiceError(`summscore serve at ${url} broke off its answer (${reason})`, {
      status: response.status,
      type: 'bad_response',
      cause,
    });
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const detail = (body as { error?: { type?: string; message?: string; field?: string } } | undefined)?.error;
    const retry = Number(response.headers.get('retry-after'));
    throw new SummscoreServiceError(
      `summscore serve answered ${response.status}: ${detail?.message ?? (text.slice(0, 200) || response.statusText)}`,
      {
        status: response.status,
        type: detail?.type ?? 'http_error',
        ...(detail?.field ? { field: detail.field } : {}),
        ...(Number.isFinite(retry) && retry > 0 ? { retryAfter: retry } : {}),
      },
    );
  }
  if (typeof body !== 'object' || body === null || !('score' in body)) {
    throw new SummscoreServiceError(`summscore serve at ${url} answered something that is not a score`, {
      status: response.status,
      type: 'bad_response',
    });
  }
  return body as SummaryResult;
}
