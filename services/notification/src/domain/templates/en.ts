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
  'common.account':
    'This e-mail was sent automatically to the address of your Challenge account. Replies to it are not read.',
  'common.preferencesIntro': 'You get this e-mail because of your e-mail preferences.',
  'common.preferencesLink': 'Change them or unsubscribe',
  'common.someone': 'a Challenge user',
  'common.viewChallenge': 'View the challenge',

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

  'challengeInvitation.subject': 'New challenge for you: {challenge}',
  'challengeInvitation.preheader': 'For a reward of {reward}. Accept or decline it on Challenge.',
  'challengeInvitation.heading': 'You have been challenged!',
  'challengeInvitation.intro':
    'You have been challenged by {name} to “{challenge}”, for a reward of {reward}.',
  'challengeInvitation.expiry': 'Accept or decline it before {expiresAt}.',

  'challengeInvitationSignup.subject': 'You have been challenged: {challenge}',
  'challengeInvitationSignup.preheader':
    'A reward of {reward} is waiting. Create your account to accept.',
  'challengeInvitationSignup.heading': 'You have been challenged!',
  'challengeInvitationSignup.intro':
    'You have been challenged by {name} to “{challenge}”, for a reward of {reward}.',
  'challengeInvitationSignup.signup':
    'Challenge is where people dare each other on video. Create your free account with this e-mail address to accept or decline the challenge.',
  'challengeInvitationSignup.button': 'Create your account',
  'challengeInvitationSignup.expiry': 'The challenge is open until {expiresAt}.',
  'challengeInvitationSignup.footer':
    'You received this e-mail because {name} entered this address on Challenge. Not interested? Then you can ignore it. Replies to it are not read.',

  'challengeAccepted.subject': 'Your challenge was accepted: {challenge}',
  'challengeAccepted.preheader': 'Now it is their turn to upload a video.',
  'challengeAccepted.heading': 'Challenge accepted',
  'challengeAccepted.intro':
    'Your challenge “{challenge}” was accepted by {name}. Their video is next; you will hear when it is there.',

  'challengeRefused.subject': 'Your challenge was declined: {challenge}',
  'challengeRefused.preheader': 'Your reward of {reward} is back in your wallet.',
  'challengeRefused.heading': 'Challenge declined',
  'challengeRefused.intro':
    'Your challenge “{challenge}” was declined by {name}. The reward of {reward} is back in your wallet.',
  'challengeRefused.reason': 'Their reason: {reason}',

  'challengeVideoUploaded.subject': 'A video is waiting for your verdict: {challenge}',
  'challengeVideoUploaded.preheader': 'Watch the proof, then approve or reject it.',
  'challengeVideoUploaded.heading': 'The proof is in',
  'challengeVideoUploaded.intro':
    'The video for your challenge “{challenge}” was uploaded by {name}. Watch it, then approve it to pay the reward of {reward}, or reject it with a reason and a referee decides.',
  'challengeVideoUploaded.button': 'Watch the video',

  'challengeSentToReferee.subject': 'Your video was rejected, a referee decides: {challenge}',
  'challengeSentToReferee.preheader': 'A referee decides within one week.',
  'challengeSentToReferee.heading': 'A referee decides',
  'challengeSentToReferee.intro':
    'Your video for “{challenge}” was rejected by {name}. A referee now watches it and decides within one week whether you earn the reward of {reward}.',
  'challengeSentToReferee.reason': 'Their reason: {reason}',

  'challengeCompletedChallenged.subject': 'Challenge completed: {challenge}',
  'challengeCompletedChallenged.preheader': 'The reward of {reward} is yours.',
  'challengeCompletedChallenged.heading': 'Well done!',
  'challengeCompletedChallenged.intro':
    'Your challenge “{challenge}” from {name} is completed. The reward of {reward} is now in your wallet.',

  'challengeCompletedOwner.subject': 'Your challenge is completed: {challenge}',
  'challengeCompletedOwner.preheader': 'The referee approved the video.',
  'challengeCompletedOwner.heading': 'Challenge completed',
  'challengeCompletedOwner.intro':
    'The referee approved the video of {name} for your challenge “{challenge}”. The reward of {reward} has been paid out to them.',

  'challengeFailedOwner.subject': 'Your challenge failed: {challenge}',
  'challengeFailedOwner.preheader': 'The referee did not approve the video. Your reward is back.',
  'challengeFailedOwner.heading': 'Challenge failed',
  'challengeFailedOwner.intro':
    'The referee did not approve the video of {name} for your challenge “{challenge}”. The reward of {reward} is back in your wallet.',
  'challengeFailedOwner.reason': 'The referee’s comment: {reason}',

  'challengeFailedChallenged.subject': 'The referee did not approve your video: {challenge}',
  'challengeFailedChallenged.preheader': 'The challenge has failed.',
  'challengeFailedChallenged.heading': 'Challenge failed',
  'challengeFailedChallenged.intro':
    'The referee did not approve your video for “{challenge}” from {name}. The challenge has failed and the reward of {reward} goes back to them.',
  'challengeFailedChallenged.reason': 'The referee’s comment: {reason}',

  'challengeExpiredOwner.subject': 'Your challenge expired: {challenge}',
  'challengeExpiredOwner.preheader': 'Your reward of {reward} is back in your wallet.',
  'challengeExpiredOwner.heading': 'Challenge expired',
  'challengeExpiredOwner.intro':
    'Your challenge “{challenge}” for {name} expired before it was completed. The reward of {reward} is back in your wallet.',

  'challengeExpiredChallenged.subject': 'A challenge expired: {challenge}',
  'challengeExpiredChallenged.preheader': 'The time for this challenge is up.',
  'challengeExpiredChallenged.heading': 'Challenge expired',
  'challengeExpiredChallenged.intro':
    'The challenge “{challenge}” from {name} expired before it was completed.',

  'challengeCancelled.subject': 'A challenge was cancelled: {challenge}',
  'challengeCancelled.preheader': 'There is nothing more to do for this challenge.',
  'challengeCancelled.heading': 'Challenge cancelled',
  'challengeCancelled.intro':
    'The challenge “{challenge}” was cancelled by {name}. There is nothing more to do for it.',

  'duelInvitation.subject': 'You have been challenged to a duel: {challenge}',
  'duelInvitation.preheader': 'You both stake {reward}. Accept or decline it on Challenge.',
  'duelInvitation.heading': 'A duel for you!',
  'duelInvitation.intro':
    '{name} challenges you to a duel: “{challenge}”. You both do it on video and each of you judges the other’s video. {name} has staked {reward}; accepting holds a stake of {reward} from your wallet too. If you complete and they do not, you win both stakes; if you both complete or both fail, each gets their own stake back.',
  'duelInvitation.expiry': 'Accept or decline it before {expiresAt}.',

  'duelAccepted.subject': 'Your duel was accepted: {challenge}',
  'duelAccepted.preheader': 'Now you both upload your video.',
  'duelAccepted.heading': 'Duel accepted',
  'duelAccepted.intro':
    '{name} accepted your duel “{challenge}” and staked {reward}, as you did. Now you both upload your video, and each of you judges the other’s.',

  'duelVideoUploaded.subject': 'A video in your duel is waiting for your verdict: {challenge}',
  'duelVideoUploaded.preheader': 'Watch the proof, then approve or reject it.',
  'duelVideoUploaded.heading': 'The proof is in',
  'duelVideoUploaded.intro':
    '{name} uploaded their video for your duel “{challenge}”. Watch it, then approve it, or reject it with a reason and a referee decides. Who gets the stakes of {reward} each is settled once both videos are judged.',
  'duelVideoUploaded.button': 'Watch the video',

  'duelSentToReferee.subject': 'Your duel video was rejected, a referee decides: {challenge}',
  'duelSentToReferee.preheader': 'A referee decides within one week.',
  'duelSentToReferee.heading': 'A referee decides',
  'duelSentToReferee.intro':
    'Your video for the duel “{challenge}” was rejected by {name}. A referee now watches it and decides within one week whether your side counts as completed.',
  'duelSentToReferee.reason': 'Their reason: {reason}',

  'duelSideCompleted.subject': 'Your duel video was approved: {challenge}',
  'duelSideCompleted.preheader': 'Your side of the duel is completed.',
  'duelSideCompleted.heading': 'Your side is completed',
  'duelSideCompleted.intro':
    'Your video for the duel “{challenge}” with {name} was approved, so your side is completed. Who gets the stakes of {reward} each is settled once the video of {name} is judged too.',

  'duelSideCompletedJudge.subject': 'The referee approved the video in your duel: {challenge}',
  'duelSideCompletedJudge.preheader': 'The other side of your duel is completed.',
  'duelSideCompletedJudge.heading': 'The referee decided',
  'duelSideCompletedJudge.intro':
    'The referee approved the video of {name} for your duel “{challenge}”, which you had rejected. Their side is completed.',

  'duelSideFailed.subject': 'The referee did not approve your duel video: {challenge}',
  'duelSideFailed.preheader': 'Your side of the duel has failed.',
  'duelSideFailed.heading': 'Your side has failed',
  'duelSideFailed.intro':
    'The referee did not approve your video for the duel “{challenge}” with {name}, so your side has failed. Who gets the stakes of {reward} each is settled once the video of {name} is judged too.',

  'duelSideFailedJudge.subject': 'The referee did not approve the video in your duel: {challenge}',
  'duelSideFailedJudge.preheader': 'The other side of your duel has failed.',
  'duelSideFailedJudge.heading': 'The referee decided',
  'duelSideFailedJudge.intro':
    'The referee agreed with you: the video of {name} for your duel “{challenge}” is not approved, and their side has failed.',

  'duelSideExpired.subject': 'Time is up for your duel video: {challenge}',
  'duelSideExpired.preheader': 'Your side of the duel has failed.',
  'duelSideExpired.heading': 'Your side has failed',
  'duelSideExpired.intro':
    'The duel “{challenge}” with {name} reached its end date before your video was there, so your side has failed. Who gets the stakes of {reward} each is settled once the video of {name} is judged.',

  'duelWon.subject': 'You won the duel: {challenge}',
  'duelWon.preheader': 'Both stakes, {total} in all, are yours.',
  'duelWon.heading': 'You won!',
  'duelWon.intro':
    'The duel “{challenge}” is over: your side is completed and the side of {name} failed. Your own stake and theirs, {total} in all, are now in your wallet.',

  'duelLost.subject': 'You lost the duel: {challenge}',
  'duelLost.preheader': 'Your stake of {reward} went to the other side.',
  'duelLost.heading': 'Duel lost',
  'duelLost.intro':
    'The duel “{challenge}” is over: the side of {name} is completed and yours failed. Your stake of {reward} went to {name}.',

  'duelCompletedBoth.subject': 'Duel over, you both completed: {challenge}',
  'duelCompletedBoth.preheader': 'Each of you keeps their own stake.',
  'duelCompletedBoth.heading': 'You both made it!',
  'duelCompletedBoth.intro':
    'You and {name} both completed the duel “{challenge}”. Nobody wins the other’s stake: your stake of {reward} is back in your wallet.',

  'duelFailedBoth.subject': 'Duel over, neither side completed: {challenge}',
  'duelFailedBoth.preheader': 'Your stake of {reward} is back in your wallet.',
  'duelFailedBoth.heading': 'Duel over',
  'duelFailedBoth.intro':
    'Neither you nor {name} completed the duel “{challenge}”. Nobody wins the other’s stake: your stake of {reward} is back in your wallet.',

  'duelExpiredOwner.subject': 'Your duel expired: {challenge}',
  'duelExpiredOwner.preheader': 'Your stake of {reward} is back in your wallet.',
  'duelExpiredOwner.heading': 'Duel expired',
  'duelExpiredOwner.intro':
    'Your duel “{challenge}” with {name} expired before it was completed. Your stake of {reward} is back in your wallet.',

  'duelExpiredChallenged.subject': 'A duel expired: {challenge}',
  'duelExpiredChallenged.preheader': 'The time for this duel is up.',
  'duelExpiredChallenged.heading': 'Duel expired',
  'duelExpiredChallenged.intro':
    'The duel “{challenge}” from {name} expired before it was completed. If you had accepted it, your stake of {reward} is back in your wallet.',

  'payoutCompleted.subject': 'Your payout of {amount} is on its way',
  'payoutCompleted.preheader': 'We transferred {amount} to your bank account.',
  'payoutCompleted.heading': 'Payout sent',
  'payoutCompleted.intro':
    'We transferred your payout of {amount} to your bank account. Depending on your bank, it arrives within one or two working days.',
  'payoutCompleted.button': 'Open your wallet',
  'payoutCompleted.ignore': 'Did not ask for a payout? Then contact our support at once.',

  'paymentAccountChanged.subject': 'Your payout bank account was changed',
  'paymentAccountChanged.preheader': 'Payouts now go to the account ending in {ending}.',
  'paymentAccountChanged.heading': 'Bank account changed',
  'paymentAccountChanged.intro':
    'On {time} the bank account for your payouts was changed from the account ending in {previous} to the account ending in {ending}.',
  'paymentAccountChanged.hold':
    'For your safety, payouts asked in the next 24 hours are checked by our staff before they are sent.',
  'paymentAccountChanged.button': 'Check your payment details',
  'paymentAccountChanged.ignore':
    'Did you not make this change? Then change your password and contact our support at once.',

  'reportResolved.subject': 'Your report has been handled',
  'reportResolved.preheader': 'Thank you for helping to keep Challenge safe.',
  'reportResolved.heading': 'Your report has been handled',
  'reportResolved.introChallenge': 'Our moderators have looked at the challenge you reported.',
  'reportResolved.introUser': 'Our moderators have looked at the user you reported.',
  'reportResolved.outcomeRemoved': 'It broke our rules and has been removed.',
  'reportResolved.outcomeTakenOffline': 'It broke our rules and has been taken offline.',
  'reportResolved.outcomeUserBanned': 'The account broke our rules and has been banned.',
  'reportResolved.outcomeNoAction':
    'They found no breach of our community guidelines, so nothing was changed.',
  'reportResolved.thanks': 'Thank you for helping to keep Challenge safe.',

  'challengeShare.subject': '{name} wants you to see a challenge: {challenge}',
  'challengeShare.preheader': 'Take a look at “{challenge}” on Challenge.',
  'challengeShare.heading': 'A challenge for you to see',
  'challengeShare.intro': '{name} thinks you should see the challenge “{challenge}” on Challenge.',
  'challengeShare.footer':
    'You received this e-mail because {name} entered this address on Challenge. Not interested? Then you can ignore it. Replies to it are not read.',
  'challengeShare.optOutIntro': 'No more invitations to this address?',
  'challengeShare.optOutLink': 'Stop invitations',
  'reportResolved.button': 'See your reports',
  'videoProcessingFailed.subject': 'Your video could not be processed',
  'videoProcessingFailed.preheader': 'Your challenge is still waiting for your proof.',
  'videoProcessingFailed.heading': 'Your video could not be processed',
  'videoProcessingFailed.introInvalidVideo':
    'We could not play the video you uploaded as proof: the file may be damaged, cut off during the upload, or not a video.',
  'videoProcessingFailed.introProcessingFailed':
    'Something went wrong on our side while we were processing the video you uploaded as proof.',
  'videoProcessingFailed.introTooLong':
    'The video you uploaded as proof is longer than we can accept. Shorten it to the moment that proves the challenge.',
  'videoProcessingFailed.introTooLarge':
    'The video you uploaded as proof has a higher resolution or frame rate than we can accept. Save it at a lower one, such as 1080p at 30 frames per second.',
  'videoProcessingFailed.nextStep':
    'Your challenge is still where it was, and nothing happened to the reward. Please upload the video again.',
  'videoProcessingFailed.button': 'Go to Challenge',
  'refereeCaseEscalated.subject': 'Overdue referee case: {challenge}',
  'refereeCaseEscalated.preheader': 'No referee decided within the deadline. An admin is needed.',
  'refereeCaseEscalated.heading': 'A referee case is overdue',
  'refereeCaseEscalated.intro':
    'No referee decided the disputed challenge “{challenge}” (reward {reward}) before its deadline of {deadline}.',
  'refereeCaseEscalated.introSide':
    'No referee decided on the disputed video of @{performer} in “{challenge}” (reward {reward}) before its deadline of {deadline}.',
  'refereeCaseEscalated.nextStep':
    'The reward stays in escrow until someone decides. Please decide the case, or find a referee who can, in the staff console.',
  'refereeCaseEscalated.button': 'Open the referee cases',
  'refereeCaseEscalated.footer':
    'You receive this e-mail because you are an admin of Challenge. Replies to it are not read.',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;
/** Every locale's table: exactly the English keys (an object literal with a missing or extra key does not compile). */
export type Messages = Record<MessageKey, string>;
