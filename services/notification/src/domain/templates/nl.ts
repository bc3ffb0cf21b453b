import type { Messages } from './en.ts';

/** Dutch texts; the keys and placeholders are those of en.ts. */
export const nl: Messages = {
  'common.rawLink': 'Werkt de knop niet? Kopieer deze link naar je browser:',
  'common.code': 'Je code: {code}',
  'common.signature': 'Het Challenge-team',
  'common.automatic':
    'Deze e-mail is automatisch verstuurd omdat dit adres op Challenge is ingevuld. Antwoorden op deze e-mail worden niet gelezen.',
  'common.account':
    'Deze e-mail is automatisch verstuurd naar het adres van je Challenge-account. Antwoorden op deze e-mail worden niet gelezen.',
  'common.preferencesIntro': 'Je krijgt deze e-mail door je e-mailvoorkeuren.',
  'common.preferencesLink': 'Wijzig ze of meld je af',
  'common.someone': 'een Challenge-gebruiker',
  'common.viewChallenge': 'Bekijk de challenge',

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

  'challengeInvitation.subject': 'Nieuwe challenge voor jou: {challenge}',
  'challengeInvitation.preheader':
    'Voor een beloning van {reward}. Accepteer of weiger hem op Challenge.',
  'challengeInvitation.heading': 'Je bent uitgedaagd!',
  'challengeInvitation.intro':
    'Je bent door {name} uitgedaagd voor “{challenge}”, met een beloning van {reward}.',
  'challengeInvitation.expiry': 'Accepteer of weiger hem vóór {expiresAt}.',

  'challengeInvitationSignup.subject': 'Je bent uitgedaagd: {challenge}',
  'challengeInvitationSignup.preheader':
    'Er ligt een beloning van {reward} klaar. Maak je account aan om te accepteren.',
  'challengeInvitationSignup.heading': 'Je bent uitgedaagd!',
  'challengeInvitationSignup.intro':
    'Je bent door {name} uitgedaagd voor “{challenge}”, met een beloning van {reward}.',
  'challengeInvitationSignup.signup':
    'Op Challenge dagen mensen elkaar uit op video. Maak met dit e-mailadres gratis je account aan om de challenge te accepteren of te weigeren.',
  'challengeInvitationSignup.button': 'Maak je account aan',
  'challengeInvitationSignup.expiry': 'De challenge staat open tot {expiresAt}.',
  'challengeInvitationSignup.footer':
    'Je krijgt deze e-mail omdat {name} dit adres op Challenge heeft ingevuld. Geen interesse? Dan kun je hem negeren. Antwoorden op deze e-mail worden niet gelezen.',

  'challengeAccepted.subject': 'Je challenge is geaccepteerd: {challenge}',
  'challengeAccepted.preheader': 'Nu is het hun beurt om een video te uploaden.',
  'challengeAccepted.heading': 'Challenge geaccepteerd',
  'challengeAccepted.intro':
    'Je challenge “{challenge}” is geaccepteerd door {name}. Hun video is de volgende stap; je hoort het zodra die er is.',

  'challengeRefused.subject': 'Je challenge is geweigerd: {challenge}',
  'challengeRefused.preheader': 'Je beloning van {reward} staat weer in je wallet.',
  'challengeRefused.heading': 'Challenge geweigerd',
  'challengeRefused.intro':
    'Je challenge “{challenge}” is geweigerd door {name}. De beloning van {reward} staat weer in je wallet.',
  'challengeRefused.reason': 'Hun reden: {reason}',

  'challengeVideoUploaded.subject': 'Er wacht een video op je oordeel: {challenge}',
  'challengeVideoUploaded.preheader': 'Bekijk het bewijs en keur het goed of af.',
  'challengeVideoUploaded.heading': 'Het bewijs is binnen',
  'challengeVideoUploaded.intro':
    'De video voor je challenge “{challenge}” is geüpload door {name}. Bekijk hem en keur hem goed om de beloning van {reward} uit te betalen, of keur hem af met een reden; dan beslist een scheidsrechter.',
  'challengeVideoUploaded.button': 'Bekijk de video',

  'challengeSentToReferee.subject':
    'Je video is afgekeurd, een scheidsrechter beslist: {challenge}',
  'challengeSentToReferee.preheader': 'Een scheidsrechter beslist binnen een week.',
  'challengeSentToReferee.heading': 'Een scheidsrechter beslist',
  'challengeSentToReferee.intro':
    'Je video voor “{challenge}” is afgekeurd door {name}. Een scheidsrechter bekijkt hem nu en beslist binnen een week of je de beloning van {reward} verdient.',
  'challengeSentToReferee.reason': 'Hun reden: {reason}',

  'challengeCompletedChallenged.subject': 'Challenge voltooid: {challenge}',
  'challengeCompletedChallenged.preheader': 'De beloning van {reward} is van jou.',
  'challengeCompletedChallenged.heading': 'Goed gedaan!',
  'challengeCompletedChallenged.intro':
    'Je challenge “{challenge}” van {name} is voltooid. De beloning van {reward} staat nu in je wallet.',

  'challengeCompletedOwner.subject': 'Je challenge is voltooid: {challenge}',
  'challengeCompletedOwner.preheader': 'De scheidsrechter heeft de video goedgekeurd.',
  'challengeCompletedOwner.heading': 'Challenge voltooid',
  'challengeCompletedOwner.intro':
    'De scheidsrechter heeft de video van {name} voor je challenge “{challenge}” goedgekeurd. De beloning van {reward} is aan hen uitbetaald.',

  'challengeFailedOwner.subject': 'Je challenge is mislukt: {challenge}',
  'challengeFailedOwner.preheader':
    'De scheidsrechter heeft de video afgekeurd. Je krijgt je beloning terug.',
  'challengeFailedOwner.heading': 'Challenge mislukt',
  'challengeFailedOwner.intro':
    'De scheidsrechter heeft de video van {name} voor je challenge “{challenge}” afgekeurd. De beloning van {reward} staat weer in je wallet.',
  'challengeFailedOwner.reason': 'Toelichting van de scheidsrechter: {reason}',

  'challengeFailedChallenged.subject': 'De scheidsrechter heeft je video afgekeurd: {challenge}',
  'challengeFailedChallenged.preheader': 'De challenge is mislukt.',
  'challengeFailedChallenged.heading': 'Challenge mislukt',
  'challengeFailedChallenged.intro':
    'De scheidsrechter heeft je video voor “{challenge}” van {name} afgekeurd. De challenge is mislukt en de beloning van {reward} gaat terug naar hen.',
  'challengeFailedChallenged.reason': 'Toelichting van de scheidsrechter: {reason}',

  'challengeExpiredOwner.subject': 'Je challenge is verlopen: {challenge}',
  'challengeExpiredOwner.preheader': 'Je beloning van {reward} staat weer in je wallet.',
  'challengeExpiredOwner.heading': 'Challenge verlopen',
  'challengeExpiredOwner.intro':
    'Je challenge “{challenge}” voor {name} is verlopen voordat hij voltooid was. De beloning van {reward} staat weer in je wallet.',

  'challengeExpiredChallenged.subject': 'Een challenge is verlopen: {challenge}',
  'challengeExpiredChallenged.preheader': 'De tijd voor deze challenge is om.',
  'challengeExpiredChallenged.heading': 'Challenge verlopen',
  'challengeExpiredChallenged.intro':
    'De challenge “{challenge}” van {name} is verlopen voordat hij voltooid was.',

  'challengeCancelled.subject': 'Een challenge is geannuleerd: {challenge}',
  'challengeCancelled.preheader': 'Voor deze challenge hoef je niets meer te doen.',
  'challengeCancelled.heading': 'Challenge geannuleerd',
  'challengeCancelled.intro':
    'De challenge “{challenge}” is geannuleerd door {name}. Je hoeft er niets meer voor te doen.',

  'duelInvitation.subject': 'Je bent uitgedaagd voor een duel: {challenge}',
  'duelInvitation.preheader':
    'Jullie zetten allebei {reward} in. Accepteer of weiger het op Challenge.',
  'duelInvitation.heading': 'Een duel voor jou!',
  'duelInvitation.intro':
    '{name} daagt je uit voor een duel: “{challenge}”. Jullie doen het allebei op video en beoordelen elkaars video. {name} heeft {reward} ingezet; als je accepteert, wordt een inzet van {reward} uit jouw wallet vastgezet. Haal jij het en de ander niet, dan win je beide inzetten; halen jullie het allebei of geen van beiden, dan krijgt ieder de eigen inzet terug.',
  'duelInvitation.expiry': 'Accepteer of weiger het vóór {expiresAt}.',

  'duelAccepted.subject': 'Je duel is geaccepteerd: {challenge}',
  'duelAccepted.preheader': 'Nu uploaden jullie allebei je video.',
  'duelAccepted.heading': 'Duel geaccepteerd',
  'duelAccepted.intro':
    '{name} heeft je duel “{challenge}” geaccepteerd en {reward} ingezet, net als jij. Nu uploaden jullie allebei je video, en ieder beoordeelt die van de ander.',

  'duelVideoUploaded.subject': 'Een video in je duel wacht op je oordeel: {challenge}',
  'duelVideoUploaded.preheader': 'Bekijk het bewijs en keur het goed of af.',
  'duelVideoUploaded.heading': 'Het bewijs is binnen',
  'duelVideoUploaded.intro':
    '{name} heeft de video voor jullie duel “{challenge}” geüpload. Bekijk hem en keur hem goed, of keur hem af met een reden, dan beslist een scheidsrechter. Wie de inzetten van elk {reward} krijgt, staat vast zodra beide video’s beoordeeld zijn.',
  'duelVideoUploaded.button': 'Bekijk de video',

  'duelSentToReferee.subject': 'Je duelvideo is afgekeurd, een scheidsrechter beslist: {challenge}',
  'duelSentToReferee.preheader': 'Een scheidsrechter beslist binnen een week.',
  'duelSentToReferee.heading': 'Een scheidsrechter beslist',
  'duelSentToReferee.intro':
    'Je video voor het duel “{challenge}” is afgekeurd door {name}. Een scheidsrechter bekijkt hem nu en beslist binnen een week of jouw kant als gehaald telt.',
  'duelSentToReferee.reason': 'Hun reden: {reason}',

  'duelSideCompleted.subject': 'Je duelvideo is goedgekeurd: {challenge}',
  'duelSideCompleted.preheader': 'Jouw kant van het duel is gehaald.',
  'duelSideCompleted.heading': 'Jouw kant is gehaald',
  'duelSideCompleted.intro':
    'Je video voor het duel “{challenge}” met {name} is goedgekeurd, dus jouw kant is gehaald. Wie de inzetten van elk {reward} krijgt, staat vast zodra ook de video van {name} beoordeeld is.',

  'duelSideCompletedJudge.subject':
    'De scheidsrechter heeft de video in je duel goedgekeurd: {challenge}',
  'duelSideCompletedJudge.preheader': 'De andere kant van je duel is gehaald.',
  'duelSideCompletedJudge.heading': 'De scheidsrechter heeft beslist',
  'duelSideCompletedJudge.intro':
    'De scheidsrechter heeft de video van {name} voor jullie duel “{challenge}” goedgekeurd, die jij had afgekeurd. Hun kant is gehaald.',

  'duelSideFailed.subject': 'De scheidsrechter heeft je duelvideo niet goedgekeurd: {challenge}',
  'duelSideFailed.preheader': 'Jouw kant van het duel is niet gehaald.',
  'duelSideFailed.heading': 'Jouw kant is niet gehaald',
  'duelSideFailed.intro':
    'De scheidsrechter heeft je video voor het duel “{challenge}” met {name} niet goedgekeurd, dus jouw kant is niet gehaald. Wie de inzetten van elk {reward} krijgt, staat vast zodra ook de video van {name} beoordeeld is.',

  'duelSideFailedJudge.subject':
    'De scheidsrechter heeft de video in je duel niet goedgekeurd: {challenge}',
  'duelSideFailedJudge.preheader': 'De andere kant van je duel is niet gehaald.',
  'duelSideFailedJudge.heading': 'De scheidsrechter heeft beslist',
  'duelSideFailedJudge.intro':
    'De scheidsrechter is het met je eens: de video van {name} voor jullie duel “{challenge}” is niet goedgekeurd, en hun kant is niet gehaald.',

  'duelSideExpired.subject': 'De tijd voor je duelvideo is om: {challenge}',
  'duelSideExpired.preheader': 'Jouw kant van het duel is niet gehaald.',
  'duelSideExpired.heading': 'Jouw kant is niet gehaald',
  'duelSideExpired.intro':
    'Het duel “{challenge}” met {name} liep af voordat jouw video er was, dus jouw kant is niet gehaald. Wie de inzetten van elk {reward} krijgt, staat vast zodra de video van {name} beoordeeld is.',

  'duelWon.subject': 'Je hebt het duel gewonnen: {challenge}',
  'duelWon.preheader': 'Beide inzetten, samen {total}, zijn van jou.',
  'duelWon.heading': 'Gewonnen!',
  'duelWon.intro':
    'Het duel “{challenge}” is voorbij: jouw kant is gehaald en die van {name} niet. Je eigen inzet en die van hen, samen {total}, staan nu in je wallet.',

  'duelLost.subject': 'Je hebt het duel verloren: {challenge}',
  'duelLost.preheader': 'Je inzet van {reward} is naar de andere kant gegaan.',
  'duelLost.heading': 'Duel verloren',
  'duelLost.intro':
    'Het duel “{challenge}” is voorbij: de kant van {name} is gehaald en die van jou niet. Je inzet van {reward} is naar {name} gegaan.',

  'duelCompletedBoth.subject': 'Duel voorbij, jullie hebben het allebei gehaald: {challenge}',
  'duelCompletedBoth.preheader': 'Ieder houdt de eigen inzet.',
  'duelCompletedBoth.heading': 'Allebei gehaald!',
  'duelCompletedBoth.intro':
    'Jij en {name} hebben het duel “{challenge}” allebei gehaald. Niemand wint de inzet van de ander: je inzet van {reward} staat weer in je wallet.',

  'duelFailedBoth.subject': 'Duel voorbij, geen van beiden heeft het gehaald: {challenge}',
  'duelFailedBoth.preheader': 'Je inzet van {reward} staat weer in je wallet.',
  'duelFailedBoth.heading': 'Duel voorbij',
  'duelFailedBoth.intro':
    'Jij en {name} hebben het duel “{challenge}” geen van beiden gehaald. Niemand wint de inzet van de ander: je inzet van {reward} staat weer in je wallet.',

  'duelExpiredOwner.subject': 'Je duel is verlopen: {challenge}',
  'duelExpiredOwner.preheader': 'Je inzet van {reward} staat weer in je wallet.',
  'duelExpiredOwner.heading': 'Duel verlopen',
  'duelExpiredOwner.intro':
    'Je duel “{challenge}” met {name} is verlopen voordat het gehaald was. Je inzet van {reward} staat weer in je wallet.',

  'duelExpiredChallenged.subject': 'Een duel is verlopen: {challenge}',
  'duelExpiredChallenged.preheader': 'De tijd voor dit duel is om.',
  'duelExpiredChallenged.heading': 'Duel verlopen',
  'duelExpiredChallenged.intro':
    'Het duel “{challenge}” van {name} is verlopen voordat het gehaald was. Had je het geaccepteerd, dan staat je inzet van {reward} weer in je wallet.',

  'payoutCompleted.subject': 'Je uitbetaling van {amount} is onderweg',
  'payoutCompleted.preheader': 'We hebben {amount} naar je bankrekening overgemaakt.',
  'payoutCompleted.heading': 'Uitbetaling verstuurd',
  'payoutCompleted.intro':
    'We hebben je uitbetaling van {amount} naar je bankrekening overgemaakt. Afhankelijk van je bank staat het bedrag er binnen een à twee werkdagen op.',
  'payoutCompleted.button': 'Open je wallet',
  'payoutCompleted.ignore':
    'Heb je geen uitbetaling aangevraagd? Neem dan meteen contact op met onze support.',

  'paymentAccountChanged.subject': 'Je bankrekening voor uitbetalingen is gewijzigd',
  'paymentAccountChanged.preheader':
    'Uitbetalingen gaan nu naar de rekening eindigend op {ending}.',
  'paymentAccountChanged.heading': 'Bankrekening gewijzigd',
  'paymentAccountChanged.intro':
    'Op {time} is de bankrekening voor je uitbetalingen gewijzigd van de rekening eindigend op {previous} naar de rekening eindigend op {ending}.',
  'paymentAccountChanged.hold':
    'Voor je veiligheid controleren onze medewerkers uitbetalingen die je de komende 24 uur aanvraagt voordat ze worden verstuurd.',
  'paymentAccountChanged.button': 'Controleer je betaalgegevens',
  'paymentAccountChanged.ignore':
    'Heb je dit niet zelf gewijzigd? Wijzig dan je wachtwoord en neem meteen contact op met onze support.',

  'reportResolved.subject': 'Je melding is afgehandeld',
  'reportResolved.preheader': 'Bedankt dat je helpt Challenge veilig te houden.',
  'reportResolved.heading': 'Je melding is afgehandeld',
  'reportResolved.introChallenge':
    'Onze moderators hebben de challenge bekeken die je hebt gemeld.',
  'reportResolved.introUser': 'Onze moderators hebben de gebruiker bekeken die je hebt gemeld.',
  'reportResolved.outcomeRemoved': 'Deze overtrad onze regels en is verwijderd.',
  'reportResolved.outcomeTakenOffline': 'Deze overtrad onze regels en is offline gehaald.',
  'reportResolved.outcomeUserBanned': 'Het account overtrad onze regels en is geblokkeerd.',
  'reportResolved.outcomeNoAction':
    'Ze vonden geen overtreding van onze communityrichtlijnen, dus er is niets veranderd.',
  'reportResolved.thanks': 'Bedankt dat je helpt Challenge veilig te houden.',

  'challengeShare.subject': '{name} wil je een challenge laten zien: {challenge}',
  'challengeShare.preheader': 'Bekijk “{challenge}” op Challenge.',
  'challengeShare.heading': 'Een challenge voor jou',
  'challengeShare.intro': '{name} vindt dat je de challenge “{challenge}” op Challenge moet zien.',
  'challengeShare.footer':
    'Je ontvangt deze e-mail omdat {name} dit adres op Challenge heeft ingevuld. Geen interesse? Dan kun je deze e-mail negeren. Antwoorden worden niet gelezen.',
  'challengeShare.optOutIntro': 'Geen uitnodigingen meer op dit adres?',
  'challengeShare.optOutLink': 'Stop uitnodigingen',
  'reportResolved.button': 'Bekijk je meldingen',
  'videoProcessingFailed.subject': 'Je video kon niet worden verwerkt',
  'videoProcessingFailed.preheader': 'Je challenge wacht nog op je bewijs.',
  'videoProcessingFailed.heading': 'Je video kon niet worden verwerkt',
  'videoProcessingFailed.introInvalidVideo':
    'We konden je video niet afspelen: het bestand is misschien beschadigd, tijdens het uploaden afgebroken, of geen video.',
  'videoProcessingFailed.introProcessingFailed':
    'Er ging bij ons iets mis bij het verwerken van de video die je als bewijs uploadde.',
  'videoProcessingFailed.introTooLong':
    'De video die je als bewijs uploadde is langer dan we kunnen accepteren. Kort hem in tot het moment dat de challenge bewijst.',
  'videoProcessingFailed.introTooLarge':
    'De video die je als bewijs uploadde heeft een hogere resolutie of framerate dan we kunnen accepteren. Sla hem op in een lagere, zoals 1080p met 30 beelden per seconde.',
  'videoProcessingFailed.nextStep':
    'Je challenge staat nog waar hij stond en er is niets met de beloning gebeurd. Upload de video alsjeblieft opnieuw.',
  'videoProcessingFailed.button': 'Naar Challenge',
  'refereeCaseEscalated.subject': 'Scheidsrechterzaak over tijd: {challenge}',
  'refereeCaseEscalated.preheader':
    'Geen scheidsrechter heeft op tijd beslist. Er is een beheerder nodig.',
  'refereeCaseEscalated.heading': 'Een scheidsrechterzaak is over tijd',
  'refereeCaseEscalated.intro':
    'Geen scheidsrechter heeft over de betwiste challenge “{challenge}” (beloning {reward}) beslist voor de deadline van {deadline}.',
  'refereeCaseEscalated.introSide':
    'Geen scheidsrechter heeft over de betwiste video van @{performer} in “{challenge}” (beloning {reward}) beslist voor de deadline van {deadline}.',
  'refereeCaseEscalated.nextStep':
    'De beloning blijft vastgezet tot iemand beslist. Beslis de zaak, of zoek een scheidsrechter die dat kan, in de beheeromgeving.',
  'refereeCaseEscalated.button': 'Open de scheidsrechterzaken',
  'refereeCaseEscalated.footer':
    'Je krijgt deze e-mail omdat je beheerder bent van Challenge. Antwoorden op deze e-mail worden niet gelezen.',
};
