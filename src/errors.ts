/**
 * The one error type of the service: a message and an HTTP status from SPEC.md's error
 * table. The error handler plugin turns it into `{"error": message}`.
 */
export class DomainError extends Error {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(statusCode: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'DomainError';
    this.statusCode = statusCode;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new DomainError(400, message);
export const notFound = (message: string) => new DomainError(404, message);
export const conflict = (message: string) => new DomainError(409, message);
export const unauthorized = (message = 'Unauthorized') => new DomainError(401, message);
export const forbidden = (message = 'Forbidden') => new DomainError(403, message);
