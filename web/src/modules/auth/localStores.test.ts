import { describe, expect, it } from 'vitest';
import { DRAFT_STORAGE_KEY } from '../challenge/draft';
import { tusStorageKey } from '../challenge/tusUpload';
import { LANGUAGE_STORAGE_KEY } from '../../app/i18n';
import { clearLocalStores } from './localStores';
import { setSuspensionNotice } from './suspension';

describe('clearLocalStores (logout, a failed login, a 401: spec section 4)', () => {
  it("forgets what this browser kept for the person: the create draft, the uploads to resume, a suspension notice; keeps the device's language", () => {
    const upload = tusStorageKey('c-1', { name: 'proof.mp4', size: 1024, lastModified: 1 });
    window.localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ name: 'Juggle' }));
    window.localStorage.setItem(upload, 'https://example.test/media/tus/u-1');
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'nl');
    setSuspensionNotice({ kind: 'unknown' });

    clearLocalStores();

    expect(window.localStorage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
    expect(window.localStorage.getItem(upload)).toBeNull();
    expect(window.sessionStorage.getItem('suspension')).toBeNull();
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('nl');
  });
});
