import { createContext, useContext, useEffect, useState } from 'react';
import {
  fetchLocationVerdict,
  hasAllowedLocation,
  rememberAllowedLocation,
  type LocationCheck,
  type LocationRefusal,
} from '../locationVerdict';

/** The location check in use: the gateway's verdict unless a test provides another. */
export const LocationCheckContext = createContext<LocationCheck>(fetchLocationVerdict);

export type LocationState =
  | { status: 'checking' }
  | { status: 'allowed' }
  | { status: 'denied'; identifier: LocationRefusal };

// One request per check function, however often the gate mounts (StrictMode runs effects twice).
const pending = new WeakMap<LocationCheck, ReturnType<LocationCheck>>();

function runOnce(check: LocationCheck): ReturnType<LocationCheck> {
  let promise = pending.get(check);
  if (!promise) {
    promise = check().catch(() => ({
      allowed: false as const,
      identifier: 'error_verifying_location' as const,
    }));
    pending.set(check, promise);
  }
  return promise;
}

/** Route guard step 2 (spec section 4): is the visitor somewhere the platform is offered? */
export function useCheckLocation(): LocationState {
  const check = useContext(LocationCheckContext);
  const [state, setState] = useState<LocationState>(() =>
    hasAllowedLocation() ? { status: 'allowed' } : { status: 'checking' },
  );
  const checking = state.status === 'checking';

  useEffect(() => {
    if (!checking) return;
    let current = true;
    void runOnce(check).then((outcome) => {
      if (!current) return;
      if (outcome.allowed) {
        rememberAllowedLocation();
        setState({ status: 'allowed' });
      } else {
        setState({ status: 'denied', identifier: outcome.identifier });
      }
    });
    return () => {
      current = false;
    };
  }, [check, checking]);

  return state;
}
