/**
 * Service failures as the errors Mastra raises itself: a `MastraError` (domain SCORER or EVAL)
 * with an upper-case id, the category (USER for bad input, THIRD_PARTY for the service or its
 * judge) and the details (status, field, retryAfter); the original error is its cause.
 */
import { ErrorCategory, ErrorDomain, MastraError } from '@mastra/core/error';
import { SummscoreServiceError } from './client.js';

export function asMastraError(error: unknown, domain: 'SCORER' | 'EVAL', id: string): MastraError {
  if (error instanceof MastraError) return error;
  const details: Record<string, string | number> = {};
  let category = ErrorCategory.THIRD_PARTY;
  let code = 'SERVICE_ERROR';
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof SummscoreServiceError) {
    code = error.type.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
    if (error.status !== undefined) details.status = error.status;
    if (error.field !== undefined) details.field = error.field;
    if (error.retryAfter !== undefined) details.retryAfter = error.retryAfter;
    // 4xx other than 429 is the caller's input or configuration; the rest is the service's.
    if (error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429) {
      category = ErrorCategory.USER;
    }
    message = error.message;
  }
  return new MastraError(
    {
      id: `SUMMSCORE_${id}_${code}`.toUpperCase() as Uppercase<string>,
      domain: domain === 'SCORER' ? ErrorDomain.SCORER : ErrorDomain.EVAL,
      category,
      text: message,
      details,
    },
    error,
  );
}
