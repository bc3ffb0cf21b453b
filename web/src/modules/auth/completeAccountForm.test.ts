import { describe, expect, it } from 'vitest';
import {
  EMPTY_COMPLETE_ACCOUNT,
  validateCompleteAccount,
  type CompleteAccountValues,
} from './completeAccountForm';

const ON = { year: 2026, month: 6, day: 15 };
const valid: CompleteAccountValues = {
  username: 'sam_2026',
  birthday: '2000-01-01',
  password: 'Str0ng!pass',
  repeatPassword: 'Str0ng!pass',
  phoneNumber: '',
  acceptTerms: true,
};
const check = (change: Partial<CompleteAccountValues>) =>
  validateCompleteAccount({ ...valid, ...change }, ON);

describe('complete-account rules (spec section 5)', () => {
  it('accepts a complete form', () => {
    expect(check({})).toEqual({ errors: {}, valid: true, age: 26, eighteenPlusContent: true });
  });

  it('requires username, birthday, password, repeat password and the terms', () => {
    const { errors, valid: ok } = validateCompleteAccount(EMPTY_COMPLETE_ACCOUNT, ON);
    expect(ok).toBe(false);
    expect(errors).toEqual({
      username: 'usernameRequired',
      birthday: 'birthdayRequired',
      password: 'passwordRequired',
      repeatPassword: 'repeatPasswordRequired',
      acceptTerms: 'termsRequired',
    });
  });

  it.each([
    ['Short1!', 'too short'],
    ['nouppercase1!', 'no uppercase letter'],
    ['NOLOWERCASE1!', 'no lowercase letter'],
    ['NoNumbers!!', 'no number'],
    ['NoSpecial123', 'no special character'],
  ])('refuses the password %s (%s)', (password) => {
    expect(check({ password, repeatPassword: password }).errors).toEqual({
      password: 'passwordRules',
    });
  });

  it('requires the passwords to match', () => {
    expect(check({ repeatPassword: 'Str0ng!pasS' }).errors).toEqual({
      repeatPassword: 'passwordsMismatch',
    });
  });

  it('refuses an invalid birthday, today and a future date', () => {
    for (const birthday of ['2001-02-29', '2000-13-01', 'yesterday', '2026-06-15', '2030-01-01']) {
      expect(check({ birthday }).errors).toEqual({ birthday: 'birthdayInvalid' });
    }
  });

  it('refuses someone of 15 years and 364 days, accepts them on their 16th birthday', () => {
    const dayBeforeBirthday = check({ birthday: '2010-06-16' });
    expect(dayBeforeBirthday.errors).toEqual({ birthday: 'tooYoung' });
    expect(dayBeforeBirthday.age).toBe(15);
    const sixteen = check({ birthday: '2010-06-15' });
    expect(sixteen).toMatchObject({ valid: true, age: 16, eighteenPlusContent: false });
  });

  it('sets the adult-content flag from the 18th birthday on', () => {
    expect(check({ birthday: '2008-06-16' })).toMatchObject({
      age: 17,
      eighteenPlusContent: false,
    });
    expect(check({ birthday: '2008-06-15' })).toMatchObject({ age: 18, eighteenPlusContent: true });
  });

  it('counts someone born on 29 February a year older on 1 March', () => {
    const on = { year: 2026, month: 3, day: 1 };
    const leapling = { ...valid, birthday: '2008-02-29' };
    expect(validateCompleteAccount(leapling, { ...on, month: 2, day: 28 }).age).toBe(17);
    expect(validateCompleteAccount(leapling, on).age).toBe(18);
  });

  it('checks the username format and an optional phone number', () => {
    expect(check({ username: 'a b' }).errors).toEqual({ username: 'usernameInvalid' });
    expect(check({ phoneNumber: '12' }).errors).toEqual({ phoneNumber: 'phoneNumberInvalid' });
    expect(check({ phoneNumber: '+31 6 1234 5678' }).valid).toBe(true);
  });
});
