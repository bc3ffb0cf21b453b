/**
 * The error catalogue of the product spec (section 8): every identifier a client can receive,
 * with its default English message. A new identifier is added here and to both web locale files.
 */
export const ERROR_CATALOGUE = {
  generic_error: 'Something went wrong.',
  not_found: 'Not found.',
  invalid_input: 'The input is not valid.',
  invalid_user_input: 'The input is not valid.',
  too_many_requests: 'Too many requests. Please wait a moment and try again.',
  unauthorized: 'You need to be logged in to do this.',
  authorized_user_not_found: 'The logged-in user was not found.',
  redundant_mutation: 'This was already processed.',
  redundant_report: 'You have already reported this.',
  access_denied: 'Access denied.',
  access_denied_location: 'This platform is only available in Europe.',
  ip_lookup_failed: 'Your location could not be determined.',
  error_verifying_location: 'Your location could not be verified.',
  page_not_found: 'Page not found.',

  challenge_reward_too_low: 'The reward is too low.',
  challenge_reward_too_high: 'The reward is too high.',
  insufficient_funds: 'Your balance is too low. Top up your wallet first.',
  invalid_expiration_date: 'The expiration date must be in the future and within 2 months.',
  invalid_expiration_time: 'The duration can be at most 9 weeks.',
  error_creating_challenge_object: 'The expiration must be at least 1 week away.',
  owner_equals_challenged_user: 'You cannot challenge yourself.',
  user_not_challengeable: 'This user cannot be challenged.',
  minimal_challenge_value_invalid: "The reward is below this user's minimum challenge amount.",
  invalid_challenged_email: 'No valid email addresses found.',
  duplicate_challenged_email: 'Each e-mail address can be challenged only once.',
  same_email: 'You cannot challenge your own e-mail address.',

  challenge_not_found: 'Challenge not found.',
  invalid_slug: 'The challenge link is not valid.',
  invalid_status: 'The status is not valid.',
  status_unchanged: 'The status is unchanged.',
  status_failed_to_update: 'The status could not be updated.',
  status_updated_failed_with_wallet_issue:
    'The status could not be updated because of a wallet issue.',
  invalid_challenge_owner: 'Only the owner of the challenge can do this.',
  invalid_visibility_input: 'The visibility is not valid.',
  invalid_action: 'This action is not allowed.',
  invalid_status_change: 'This status change is not allowed.',
  challenge_expired: 'The challenge has expired.',
  referee_case_required: 'A dispute is decided in its referee case, in the staff console.',
  description_not_editable:
    'The description cannot change once the challenge is accepted: it is what was agreed.',

  user_not_found: 'User not found.',
  private_profile: 'This profile is private.',
  banned_user: 'This account has been banned.',
  invalid_phone_number: 'The phone number is not valid.',
  no_unique_username: 'This username is already taken.',
  invalid_credentials: 'The credentials are not valid.',
  invalid_password:
    'The password needs at least 8 characters with an uppercase letter, a lowercase letter, a number and a special character.',
  user_login_failed: 'Login failed.',
  unavailable_too_young: 'You must be 18 years or older to use the product.',
  account_deletion_requested:
    'The deletion of this account has been requested. Contact support to restore it.',
  wallet_contains_money: 'Your wallet still contains money.',
  user_contains_open_payouts: 'You still have open payout requests.',
  expired_credentials: 'The link or code has expired.',

  invalid_file: 'Only jpg, jpeg and png files are allowed.',
  challenge_video_upload_failed: 'The video could not be uploaded.',
  upload_error: 'The upload failed.',

  payout_request_no_longer_open: 'This payout request is no longer open.',
  payout_request_amount_too_low: 'The amount is below the minimum payout.',
  payout_request_details_missing: 'Your phone number and bank details are needed for a payout.',
  payout_request_failed: 'The payout request failed.',
  limit_exceeded_this_month: 'The monthly limit has been reached. E-mail support.',
  get_open_payout_amount_went_wrong: 'The open payout amount could not be fetched.',
  get_open_payout_amount_user_not_logged_in: 'You need to be logged in to see open payouts.',
  wallet_not_found: 'Wallet not found.',
  wallet_not_for_user: 'This wallet does not belong to you.',
  invalid_origin_url: 'The origin URL is not valid.',
} as const;

export type ErrorIdentifier = keyof typeof ERROR_CATALOGUE;
export const ERROR_IDENTIFIERS = Object.keys(ERROR_CATALOGUE) as ErrorIdentifier[];

/** A failure the client is meant to see: an identifier of the catalogue and a message. */
export class AppError extends Error {
  constructor(
    readonly identifier: ErrorIdentifier,
    message?: string,
  ) {
    super(message ?? ERROR_CATALOGUE[identifier]);
    this.name = 'AppError';
  }
}

export function isErrorIdentifier(value: string): value is ErrorIdentifier {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
