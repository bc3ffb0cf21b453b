import { act } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { dataComponent } from './dataComponent';

/**
 * A prerendered page hydrates its data components (the page, the sidebar) without rendering
 * them a second time: a re-render when hydration ends is blocking, the whole page in one long
 * task on a phone (docs/adr/0101). A client-only one renders after hydration, as before.
 */
describe('dataComponent after hydration', () => {
  async function hydrateCounting(clientOnly: boolean) {
    let renders = 0;
    function Part({ label }: { label: string }) {
      renders += 1;
      return <p>{label}</p>;
    }
    const Data = dataComponent(async () => Part, { clientOnly });
    const tree = (
      <main>
        <Data label="part" />
      </main>
    );
    // Resolves the lazy code once, as the prerender waits for it, so the server renders it.
    const scratch = document.createElement('div');
    const scratchRoot = createRoot(scratch);
    await act(async () => scratchRoot.render(tree));
    act(() => scratchRoot.unmount());

    const container = document.createElement('div');
    container.innerHTML = renderToString(tree);
    document.body.append(container);
    renders = 0;
    const root = await act(async () => hydrateRoot(container, tree));
    const html = container.innerHTML;
    act(() => root.unmount());
    container.remove();
    return { renders, html };
  }

  it('renders a data component once while hydrating, never again when hydration ends', async () => {
    const { renders, html } = await hydrateCounting(false);
    expect(html).toContain('<p>part</p>');
    expect(renders).toBe(1);
  });

  it('renders a client-only one after hydration only', async () => {
    const { renders, html } = await hydrateCounting(true);
    expect(html).toContain('<p>part</p>');
    expect(renders).toBe(1);
  });
});
