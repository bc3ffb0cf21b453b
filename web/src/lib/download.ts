/**
 * Saves text as a file through the browser's download (a Blob behind a temporary object URL), e.g.
 * a SEPA XML file that came back in a GraphQL answer.
 */
export function downloadTextFile(fileName: string, text: string, type = 'text/plain'): void {
  const blob = new Blob([text], { type: `${type};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.hidden = true;
  // Firefox only follows a click on an anchor that is in the document.
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked later: some browsers start reading the Blob only after the click has returned.
  window.setTimeout(() => {
    if (typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
  }, 10_000);
}
