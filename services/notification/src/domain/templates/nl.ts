import type { Messages } from './en.ts';

/** Dutch texts; the keys and placeholders are those of en.ts. */
export const nl: Messages = {
  'common.rawLink': 'Werkt de knop niet? Kopieer deze link naar je browser:',
  'common.code': 'Je code: {code}',
  'common.signature': 'Het Challenge-team',
  'common.automatic':
    'Deze e-mail is automatisch verstuurd omdat dit adres op Challenge is ingevuld. Antwoorden op deze e-mail worden niet gelezen.',

  'loginLink.subject': 'Je inlogcode voor Challenge: {code}',
  'loginLink.preheader': 'Gebruik code {code} of de link in deze e-mail om in te loggen.',
  'loginLink.heading': 'Inloggen bij Challenge',
  'loginLink.intro': 'Vul deze code in het inlogvenster in:',
  'loginLink.buttonIntro': 'Of log direct in met de knop:',
  'loginLink.button': 'Inloggen',
  'loginLink.expiry': 'De code en de link werken één keer en verlopen op {expiresAt}.',
  'loginLink.ignore':
    'Heb je niet geprobeerd in te loggen? Dan kun je deze e-mail negeren: zonder de code of de link kan niemand op je account inloggen.',

  'signupLink.subject': 'Maak je Challenge-account af: code {code}',
  'signupLink.preheader':
    'Gebruik code {code} of de link in deze e-mail om je account af te maken.',
  'signupLink.heading': 'Maak je account af',
  'signupLink.intro': 'Welkom bij Challenge! Vul deze code in om je account af te maken:',
  'signupLink.buttonIntro': 'Of ga direct verder met de knop:',
  'signupLink.button': 'Account afmaken',
  'signupLink.expiry': 'De code en de link werken één keer en verlopen op {expiresAt}.',
  'signupLink.ignore':
    'Heb je je niet aangemeld? Dan kun je deze e-mail negeren: zonder de code of de link wordt er geen account aangemaakt.',

  'passwordReset.subject': 'Stel je wachtwoord voor Challenge opnieuw in',
  'passwordReset.preheader': 'Kies een nieuw wachtwoord voor {username}.',
  'passwordReset.heading': 'Wachtwoord opnieuw instellen',
  'passwordReset.greeting': 'Hoi {username},',
  'passwordReset.intro':
    'We hebben een verzoek ontvangen om het wachtwoord van je Challenge-account opnieuw in te stellen. Kies met de knop hieronder een nieuw wachtwoord.',
  'passwordReset.button': 'Nieuw wachtwoord kiezen',
  'passwordReset.expiry': 'De link werkt één keer en verloopt op {expiresAt}.',
  'passwordReset.ignore':
    'Heb je dit niet aangevraagd? Dan kun je deze e-mail negeren: je wachtwoord blijft zoals het is.',
};
