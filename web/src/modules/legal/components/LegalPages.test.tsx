import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { INTRO_COOKIE } from '../../intro/introCookie';
import { loggedInMock, loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';

const TERMS_SECTIONS = [
  'Copyright notices',
  'Intellectual property',
  'Terms of service',
  'KYC, AML and GDPR',
  'Cookie policy',
  'Privacy',
  'Community guidelines',
  'Payment terms',
  'Accessibility',
  'Notification of unlawful content',
];

describe('terms page', () => {
  it('has every section the spec lists, each reachable from the contents', async () => {
    renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' }),
    ).toBeTruthy();
    const headings = within(screen.getByRole('main'))
      .getAllByRole('heading', { level: 2 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual(TERMS_SECTIONS);
    const contents = screen.getByRole('navigation', { name: 'On this page' });
    for (const title of TERMS_SECTIONS) {
      const link = within(contents).getByRole('link', { name: title });
      const id = link.getAttribute('href')?.replace(/^#/, '') ?? '';
      expect(document.getElementById(id)?.textContent).toContain(title);
    }
  });

  it('opens the privacy links in a new tab, safely', async () => {
    renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    const privacy = (await screen.findByRole('heading', { level: 2, name: 'Privacy' })).closest(
      'section',
    ) as HTMLElement;
    const links = within(privacy).getAllByRole('link');
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(link.textContent).toContain('(opens in a new tab)');
    }
  });

  it('is in Dutch too', async () => {
    renderApp({ path: '/terms', mocks: [loggedOutMock()], language: 'nl' });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Melding van onrechtmatige inhoud' }),
    ).toBeTruthy();
  });
});

describe('cookies page', () => {
  it('lists every cookie and stored item with its purpose and how long it is kept', async () => {
    renderApp({ path: '/cookies', mocks: [loggedOutMock()] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Cookie policy' })).toBeTruthy();
    const table = screen.getByRole('table');
    const names = within(table)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    expect(names).toEqual([
      'session',
      INTRO_COOKIE,
      // The cookie the gateway reads to send prerendered pages in the chosen language.
      'language',
      'language',
      'challenge-draft',
      'location-allowed',
      'chunk-reload-at',
    ]);
    const intro = within(table).getByRole('row', { name: new RegExp(INTRO_COOKIE) });
    expect(intro.textContent).toContain('365 days');
  });
});

describe('settings guidelines', () => {
  it('shows the community guidelines and compliance rules', async () => {
    renderApp({ path: '/settings/guidelines', mocks: [loggedInMock()] });
    expect(await screen.findByRole('heading', { level: 2, name: 'Guidelines' })).toBeTruthy();
    for (const title of ['Do', 'Do not', 'Money and compliance']) {
      expect(screen.getByRole('heading', { level: 3, name: title })).toBeTruthy();
    }
    expect(screen.getByText(/bank account in your own name/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Read the terms and conditions' })).toBeTruthy();
  });

  it('shows a visitor the community guidelines in the terms, with no link behind the log-in (issue 22, point 14)', async () => {
    renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    const community = await screen.findByRole('region', { name: /Community/ });
    for (const title of ['Do', 'Do not', 'Money and compliance']) {
      expect(within(community).getByRole('heading', { level: 3, name: title })).toBeTruthy();
    }
    expect(within(community).getByText(/bank account in your own name/)).toBeTruthy();
    const links = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(links.filter((href) => href?.startsWith('/settings'))).toEqual([]);
  });

  it('leads from the contact page to the public guidelines (issue 22, point 14)', async () => {
    renderApp({ path: '/contact', mocks: [loggedOutMock()] });
    const link = await screen.findByRole('link', { name: 'Community guidelines' });
    expect(link.getAttribute('href')).toBe('/terms#terms-community');
  });
});
