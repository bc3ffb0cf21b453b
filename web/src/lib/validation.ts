// Deliberately simple: the server is the authority; this only catches obvious typos before a request.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[^\s@.]{2,}$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** Spec section 9: passwords have at least this many characters. */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * Spec section 5: at least 8 characters with an uppercase letter, a lowercase letter, a number and
 * a special character (anything that is not a letter or digit). The server applies the same rule.
 */
export function meetsPasswordRules(password: string): boolean {
  return (
    password.length >= PASSWORD_MIN_LENGTH &&
    /[A-Z]/.test(password) &&
    /[a-z]/.test(password) &&
    /[0-9]/.test(password) &&
    /[^A-Za-z0-9]/.test(password)
  );
}

/** International format: an optional +, then 8 to 15 digits; spaces, brackets, dashes and dots ignored. */
export function isValidPhoneNumber(value: string): boolean {
  return /^\+?[1-9]\d{7,14}$/.test(value.replace(/[\s().-]/g, ''));
}

/** A challenge's slug as the server makes them: lowercase words of letters and digits joined by dashes. */
export function isValidSlug(value: string): boolean {
  return value.length <= 120 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}

/** Usernames are public and permanent: 3 to 30 letters, digits, dots, dashes or underscores. */
export function isValidUsername(value: string): boolean {
  return /^[a-zA-Z0-9._-]{3,30}$/.test(value.trim());
}
