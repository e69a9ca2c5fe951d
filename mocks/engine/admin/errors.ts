/** The error an admin operation or a command throws to refuse bad input or an unknown id. */

/** A misuse of an admin operation (unknown key or organization, invalid input); carries an HTTP status. */
export class AdminError extends Error {
  override readonly name = 'AdminError';
  constructor(
    readonly code: 'NOT_FOUND' | 'BAD_REQUEST',
    message: string,
  ) {
    super(message);
  }
  get status(): 404 | 400 {
    return this.code === 'NOT_FOUND' ? 404 : 400;
  }
}

export const isAdminError = (value: unknown): value is AdminError => value instanceof AdminError;
