import { createContext, useMemo, useState, type ReactNode } from 'react';

/**
 * A sign-up in progress (spec section 3, "verifying user"): the inbox was proven by the code or by
 * the link, but there is no account yet. Held in memory only: the proof is a credential.
 */
export type VerifyingUser =
  | { type: 'code'; email: string; code: string }
  | { type: 'link'; email: string; hash: string; expires: number };

export interface VerifyingUserState {
  verifying: VerifyingUser | null;
  setVerifying: (value: VerifyingUser | null) => void;
}

export const VerifyingUserContext = createContext<VerifyingUserState | null>(null);

export function VerifyingUserProvider({ children }: { children: ReactNode }) {
  const [verifying, setVerifying] = useState<VerifyingUser | null>(null);
  const value = useMemo(() => ({ verifying, setVerifying }), [verifying]);
  return <VerifyingUserContext value={value}>{children}</VerifyingUserContext>;
}
