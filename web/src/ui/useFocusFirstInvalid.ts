import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * After a refused submit, moves focus to the first field the form marks invalid
 * (`aria-invalid="true"`), once the errors are on screen. Returns the form's ref and the request.
 */
export function useFocusFirstInvalid<T extends HTMLElement = HTMLFormElement>() {
  const ref = useRef<T>(null);
  const [request, setRequest] = useState(0);
  useEffect(() => {
    if (request === 0) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [request]);
  const focusFirstInvalid = useCallback(() => setRequest((count) => count + 1), []);
  return { ref, focusFirstInvalid };
}
