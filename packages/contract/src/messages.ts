/**
 * Every user-facing text the spec names (sections 5 and 8), plus the few this product adds.
 * The server answers with these and the web app shows them, so they must never drift apart.
 */
export const authMessages = {
  fillAllFields: 'Please fill in all fields.',
  usernameTooShort: 'Username must be at least 3 characters long.',
  passwordTooShort: 'Password must be at least 8 characters long.',
  captchaRequired: 'Please verify that you are not a robot.',
  usernameTooLong: 'Username must be less than 20 characters long.',
  passwordTooLong: 'Password must be less than 80 characters long.',
  emailTooLong: 'Email must be less than 80 characters long.',
  usernameCharacters: 'Username can only contain letters, numbers and underscores.',
  passwordsDoNotMatch: 'Passwords do not match.',
  invalidEmail: 'Please enter a valid email address.',
  usernameTaken: 'Username is already taken.',
  emailTaken: 'Email is already registered.',
  invalidCredentials: 'Invalid username or password.',
  accountBlocked: 'This account is blocked. Please contact support.',
  loginFailed: 'Login failed. Please try again.',
  registrationFailed: 'Registration failed. Please try again.',
  tooManyAttempts: (seconds: number) =>
    `Too many attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
} as const;

/** The two texts the web app reacts to by clearing the session (spec section 8). */
export const sessionMessages = {
  unauthorized: 'Unauthorized',
  invalidToken: 'Invalid token',
  forbidden: 'Forbidden',
} as const;

export const generalMessages = {
  genericError: 'An error occurred. Please try again.',
  unexpectedServerError: 'Unexpected server error.',
  notFound: 'Not found.',
  tooManyRequests: 'Too many requests. Please slow down and try again shortly.',
  invalidRequest: 'Invalid request.',
  bodyTooLarge: 'Request body is too large.',
  invalidJson: 'Request body is not valid JSON.',
  unsupportedMediaType: 'Unsupported content type: send JSON.',
  badUrl: 'The request address is not valid.',
  uriTooLong: 'The request address is too long.',
  methodNotAllowed: 'This method is not allowed here.',
  requestTimeout: 'The request took too long to arrive.',
} as const;

export function isSessionEndingError(error: string | undefined | null): boolean {
  return error === sessionMessages.unauthorized || error === sessionMessages.invalidToken;
}
