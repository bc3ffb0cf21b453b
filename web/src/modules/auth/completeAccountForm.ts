import { ageOn, isBefore, parseCalendarDate, type CalendarDate } from '../../lib/dates';
import { isValidPhoneNumber, isValidUsername, meetsPasswordRules } from '../../lib/validation';

/** Spec section 9: minimum age at registration, and the age of the adult-content flag. */
export const MINIMUM_AGE = 16;
export const ADULT_AGE = 18;

export interface CompleteAccountValues {
  username: string;
  /** YYYY-MM-DD, as the date input gives it. */
  birthday: string;
  password: string;
  repeatPassword: string;
  /** Optional. */
  phoneNumber: string;
  acceptTerms: boolean;
}

export type CompleteAccountField = keyof CompleteAccountValues;

/** The error of each field, as the key of its text under `auth.completeAccount.errors`. */
export type CompleteAccountErrorKey =
  | 'usernameRequired'
  | 'usernameInvalid'
  | 'birthdayRequired'
  | 'birthdayInvalid'
  | 'tooYoung'
  | 'passwordRequired'
  | 'passwordRules'
  | 'repeatPasswordRequired'
  | 'passwordsMismatch'
  | 'phoneNumberInvalid'
  | 'termsRequired';

export const COMPLETE_ACCOUNT_FIELDS: readonly CompleteAccountField[] = [
  'username',
  'birthday',
  'password',
  'repeatPassword',
  'phoneNumber',
  'acceptTerms',
];

export const EMPTY_COMPLETE_ACCOUNT: CompleteAccountValues = {
  username: '',
  birthday: '',
  password: '',
  repeatPassword: '',
  phoneNumber: '',
  acceptTerms: false,
};

export interface CompleteAccountVerdict {
  errors: Partial<Record<CompleteAccountField, CompleteAccountErrorKey>>;
  valid: boolean;
  /** Whole years on `on`; null while the birthday is missing or invalid. */
  age: number | null;
  /** True from 18 years on (spec section 5); the server derives it again. */
  eighteenPlusContent: boolean;
}

function birthdayError(
  birthday: CalendarDate | null,
  raw: string,
  on: CalendarDate,
): CompleteAccountErrorKey | null {
  if (raw.trim() === '') return 'birthdayRequired';
  if (!birthday || !isBefore(birthday, on)) return 'birthdayInvalid';
  return ageOn(birthday, on) < MINIMUM_AGE ? 'tooYoung' : null;
}

/** The complete-account rules of spec section 5, checked on the calendar date `on` (today). */
export function validateCompleteAccount(
  values: CompleteAccountValues,
  on: CalendarDate,
): CompleteAccountVerdict {
  const errors: CompleteAccountVerdict['errors'] = {};
  const birthday = parseCalendarDate(values.birthday);

  if (values.username.trim() === '') errors.username = 'usernameRequired';
  else if (!isValidUsername(values.username)) errors.username = 'usernameInvalid';

  const birthdayProblem = birthdayError(birthday, values.birthday, on);
  if (birthdayProblem) errors.birthday = birthdayProblem;

  if (values.password === '') errors.password = 'passwordRequired';
  else if (!meetsPasswordRules(values.password)) errors.password = 'passwordRules';

  if (values.repeatPassword === '') errors.repeatPassword = 'repeatPasswordRequired';
  else if (values.password !== values.repeatPassword) errors.repeatPassword = 'passwordsMismatch';

  if (values.phoneNumber.trim() !== '' && !isValidPhoneNumber(values.phoneNumber)) {
    errors.phoneNumber = 'phoneNumberInvalid';
  }

  if (!values.acceptTerms) errors.acceptTerms = 'termsRequired';

  const age =
    birthday && (birthdayProblem === null || birthdayProblem === 'tooYoung')
      ? ageOn(birthday, on)
      : null;
  return {
    errors,
    valid: Object.keys(errors).length === 0,
    age,
    eighteenPlusContent: age !== null && age >= ADULT_AGE,
  };
}
