import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Dialogs are routed through the `?modal=` query parameter so that they survive a reload, can be
 * linked to and close with the Back button. The magic-link dialog also keeps the e-mail address it
 * sent a link to in `?email=`.
 */
export const MODAL_NAMES = [
  'login-magic-link',
  'login-username-password',
  'complete-account',
  'suspended',
] as const;
export type ModalName = (typeof MODAL_NAMES)[number];
export const MODAL_PARAM = 'modal';
export const EMAIL_PARAM = 'email';

export function isModalName(value: unknown): value is ModalName {
  return typeof value === 'string' && (MODAL_NAMES as readonly string[]).includes(value);
}

/**
 * The element that opened the route dialog now open. Kept here, not in the dialog: switching
 * between the login dialogs and on to complete-account replaces the dialog, and the element
 * focused when the next one opens is inside the one that leaves.
 */
let routeDialogOpener: HTMLElement | null = null;

function rememberOpener() {
  const active = document.activeElement;
  routeDialogOpener = active instanceof HTMLElement && active !== document.body ? active : null;
}

/**
 * After the last route dialog closed: focus goes back to its opener, or, when that is gone (the
 * log-in box after logging in, a closed phone menu) or the dialog came with the URL, to the main
 * content, so that it is never left on the body.
 */
export function restoreRouteDialogFocus() {
  const opener = routeDialogOpener;
  routeDialogOpener = null;
  if (opener?.isConnected) opener.focus();
  else if (document.activeElement === document.body || !document.activeElement)
    document.getElementById('main-content')?.focus();
}

export function useModalRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const value = searchParams.get(MODAL_PARAM);

  const update = useCallback(
    (change: (params: URLSearchParams) => void, replace: boolean) =>
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          change(next);
          return next;
        },
        { replace, preventScrollReset: true },
      ),
    [setSearchParams],
  );

  /** Opens a dialog as a new history entry, so Back closes it. */
  const openModal = useCallback(
    (name: ModalName) => {
      rememberOpener();
      update((params) => params.set(MODAL_PARAM, name), false);
    },
    [update],
  );
  /**
   * Replaces the open dialog by another (e.g. between the two login dialogs). The e-mail belongs
   * to the magic-link dialog's code step, so it leaves the URL.
   */
  const switchModal = useCallback(
    (name: ModalName) =>
      update((params) => {
        params.set(MODAL_PARAM, name);
        params.delete(EMAIL_PARAM);
      }, true),
    [update],
  );
  /** Closes the dialog: the parameter (and the e-mail that belongs to it) leaves the URL. */
  const closeModal = useCallback(
    () =>
      update((params) => {
        params.delete(MODAL_PARAM);
        params.delete(EMAIL_PARAM);
      }, true),
    [update],
  );
  const setLoginEmail = useCallback(
    (email: string | null) =>
      update(
        (params) => (email ? params.set(EMAIL_PARAM, email) : params.delete(EMAIL_PARAM)),
        true,
      ),
    [update],
  );

  return {
    modal: isModalName(value) ? value : null,
    loginEmail: searchParams.get(EMAIL_PARAM),
    openModal,
    switchModal,
    closeModal,
    setLoginEmail,
  };
}
