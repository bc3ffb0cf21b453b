import { clearDraft } from '../challenge/hooks/useChallengeDraft';
import { forgetResumableUploads } from '../challenge/tusUpload';
import { setSuspensionNotice } from './suspension';

/**
 * What this browser keeps for a person beyond the session (spec section 4: "Logout or a failed
 * login clears the token, the profile and local stores"; a 401 clears all stores): the create
 * draft, the proof uploads remembered to resume, and a suspension notice. The device's choices
 * (language, the location check) stay. The callers reset the Apollo store and the sign-up in
 * progress.
 */
export function clearLocalStores(): void {
  clearDraft();
  forgetResumableUploads();
  setSuspensionNotice(null);
}
