// A prerendered page's only script (web/scripts/build.mjs, docs/adr/0100): it starts the page's
// own scripts (the entry and the modules it names for download) once the page has painted, so
// that on a slow line they never share it with the HTML, the stylesheet and the page's largest
// paint. The list is a JSON data block the build wrote into the page; no inline script (CSP).
/* global document, requestAnimationFrame */
(() => {
  const element = document.getElementById('page-scripts');
  if (!element) return;
  const { entry, preload } = JSON.parse(element.textContent);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of preload) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
  };
  // After the next frame is painted; a hidden tab paints no frame, so a timer too.
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 200);
})();
