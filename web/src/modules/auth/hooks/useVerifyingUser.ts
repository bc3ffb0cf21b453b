import { useContext } from 'react';
import { VerifyingUserContext, type VerifyingUserState } from '../components/VerifyingUserProvider';

/** The sign-up in progress, if any; setting one opens the complete-account dialog. */
export function useVerifyingUser(): VerifyingUserState {
  const state = useContext(VerifyingUserContext);
  if (!state) throw new Error('useVerifyingUser must be used inside <VerifyingUserProvider>');
  return state;
}
