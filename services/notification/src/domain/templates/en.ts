/**
 * English texts of every e-mail. `{name}` is a value filled in when the e-mail is rendered; the
 * Dutch table (nl.ts) must have exactly these keys and the same placeholders (a test checks).
 * Plain text only: the HTML layout escapes every string it places.
 */
export const en = {
  'common.rawLink': 'Button not working? Copy this link into your browser:',
  'common.code': 'Your code: {code}',
  'common.signature': 'The Challenge team',
  'common.automatic':
    'This e-mail was sent automatically because this address was entered on Challenge. Replies to it are not read.',

  'loginLink.subject': 'Your Challenge log-in code: {code}',
  'loginLink.preheader': 'Use code {code} or the link in this e-mail to log in.',
  'loginLink.heading': 'Log in to Challenge',
  'loginLink.intro': 'Enter this code in the log-in window:',
  'loginLink.buttonIntro': 'Or log in straight away with the button:',
  'loginLink.button': 'Log in',
  'loginLink.expiry': 'The code and the link work once and expire on {expiresAt}.',
  'loginLink.ignore':
    'Did not try to log in? Then you can ignore this e-mail: without the code or the link nobody can log in to your account.',

  'signupLink.subject': 'Complete your Challenge account: code {code}',
  'signupLink.preheader': 'Use code {code} or the link in this e-mail to complete your account.',
  'signupLink.heading': 'Complete your account',
  'signupLink.intro': 'Welcome to Challenge! Enter this code to complete your account:',
  'signupLink.buttonIntro': 'Or continue straight away with the button:',
  'signupLink.button': 'Complete your account',
  'signupLink.expiry': 'The code and the link work once and expire on {expiresAt}.',
  'signupLink.ignore':
    'Did not sign up? Then you can ignore this e-mail: no account is created without the code or the link.',

  'passwordReset.subject': 'Reset your Challenge password',
  'passwordReset.preheader': 'Choose a new password for {username}.',
  'passwordReset.heading': 'Reset your password',
  'passwordReset.greeting': 'Hi {username},',
  'passwordReset.intro':
    'We received a request to reset the password of your Challenge account. Choose a new password with the button below.',
  'passwordReset.button': 'Choose a new password',
  'passwordReset.expiry': 'The link works once and expires on {expiresAt}.',
  'passwordReset.ignore':
    'Did not ask for this? Then you can ignore this e-mail: your password stays as it is.',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;
/** Every locale's table: exactly the English keys (an object literal with a missing or extra key does not compile). */
export type Messages = Record<MessageKey, string>;
