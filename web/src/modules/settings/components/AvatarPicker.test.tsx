import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { MAX_AVATAR_BYTES } from '../avatarUpload';
import { SettingsDocument, type UserSettings } from '../graphql/Settings';
import {
  UpdateProfileDocument,
  type UpdateProfileMutationVariables,
} from '../graphql/UpdateProfile';

const saved = '/_ipx/w_256&f_webp/avatars/u-1/old.webp';
const fresh = '/_ipx/w_256&f_webp/avatars/u-1/new.webp';

const settings = (avatar: string | null): UserSettings => ({
  displayName: 'Alice Jansen',
  bio: 'Dares accepted.',
  avatar,
  challengeable: true,
  minimumChallengeEnabled: false,
  minimumChallengeValue: 0,
  publicProfile: true,
  hasPassword: true,
});

const settingsMock = (avatar: string | null) =>
  answerMock(
    SettingsDocument,
    {},
    {
      getSettings: {
        __typename: 'SettingsResult',
        status: statusOf(true, 'ok', 'OK'),
        settings: { __typename: 'Settings', ...settings(avatar) },
      },
    },
    { times: Number.POSITIVE_INFINITY },
  );

const profileAnswer = (
  success: boolean,
  identifier = 'ok',
  message = 'OK',
  avatar: string | null = fresh,
) => ({
  data: {
    updateProfile: {
      status: { success, identifier, message },
      displayName: 'Alice Jansen',
      bio: 'Dares accepted.',
      avatar: success ? avatar : null,
    },
  },
});

const picture = (name = 'me.png', type = 'image/png', size?: number) => {
  const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};

async function openPicker(avatar: string | null = null) {
  renderApp({ path: '/settings/edit-profile', mocks: [loggedInMock(), settingsMock(avatar)] });
  const form = await screen.findByRole('form', { name: 'Your profile' });
  return {
    form,
    file: within(form).getByLabelText<HTMLInputElement>('Profile picture file'),
    save: within(form).getByRole<HTMLButtonElement>('button', { name: 'Save' }),
  };
}

const imageOf = (form: HTMLElement) => form.querySelector('img');

let created: string[];
let revoked: string[];
const originalCreate = URL.createObjectURL;
const originalRevoke = URL.revokeObjectURL;

beforeEach(() => {
  created = [];
  revoked = [];
  URL.createObjectURL = ((blob: Blob) => {
    const url = `blob:preview-${created.length + 1}-${(blob as File).name}`;
    created.push(url);
    return url;
  }) as typeof URL.createObjectURL;
  URL.revokeObjectURL = ((url: string) => void revoked.push(url)) as typeof URL.revokeObjectURL;
});
afterEach(() => {
  URL.createObjectURL = originalCreate;
  URL.revokeObjectURL = originalRevoke;
  vi.unstubAllGlobals();
});

describe('settings: the avatar picker', () => {
  it('previews a picked picture, uploads it with the form as a multipart request, then shows the saved one', async () => {
    let answer!: (response: Response) => void;
    const fetchMock = vi.fn(
      (_url: string, _init: RequestInit) =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { form, file, save } = await openPicker();
    expect(imageOf(form)).toBeNull(); // the initial, no picture yet
    expect(within(form).getByText('A')).toBeTruthy();
    expect(save.disabled).toBe(true);

    const chosen = picture();
    fireEvent.change(file, { target: { files: [chosen] } });
    await waitFor(() => expect(imageOf(form)?.getAttribute('src')).toBe(created[0]));
    expect(within(form).getByText('Save to use this picture.')).toBeTruthy();
    expect(save.disabled).toBe(false);

    fireEvent.click(save);
    expect(await within(form).findByText('Uploading your picture…')).toBeTruthy();
    expect(save.getAttribute('aria-busy')).toBe('true');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/graphql');
    const body = init.body as FormData;
    const operations = JSON.parse(String(body.get('operations')));
    expect(operations.operationName).toBe('UpdateProfile');
    expect(operations.variables).toEqual({
      input: { displayName: 'Alice Jansen', bio: 'Dares accepted.', avatar: null },
    });
    expect(JSON.parse(String(body.get('map')))).toEqual({ 0: ['variables.input.avatar'] });
    expect(body.get('0')).toMatchObject({
      name: chosen.name,
      type: chosen.type,
      size: chosen.size,
    });

    answer(new Response(JSON.stringify(profileAnswer(true)), { status: 200 }));
    expect(await screen.findByText('Your changes have been saved')).toBeTruthy();
    await waitFor(() =>
      expect(imageOf(form)?.getAttribute('src')).toBe('/_ipx/f_webp&w_96/avatars/u-1/new.webp'),
    );
    expect(imageOf(form)?.getAttribute('srcset')).toContain('w_192/avatars/u-1/new.webp 2x');
    expect(revoked).toEqual([created[0]]);
    expect(save.disabled).toBe(true);
  });

  it('refuses another type and a picture over 10 MB before any upload', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { form, file, save } = await openPicker();
    fireEvent.change(file, { target: { files: [picture('me.gif', 'image/gif')] } });
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Only jpg, jpeg and png files are allowed.',
    );
    fireEvent.change(file, {
      target: { files: [picture('big.jpg', 'image/jpeg', MAX_AVATAR_BYTES + 1)] },
    });
    expect((await within(form).findByRole('alert')).textContent).toBe('File is too large');
    expect(imageOf(form)).toBeNull();
    expect(created).toEqual([]);
    expect(save.disabled).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    [
      'invalid_file',
      'Only jpg, jpeg and png files are allowed.',
      'Only jpg, jpeg and png files are allowed.',
    ],
    ['upload_error', 'File is too large', 'File is too large'],
  ])('shows the server refusal %s under the picker', async (identifier, message, shown) => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response(JSON.stringify(profileAnswer(false, identifier, message)), { status: 200 }),
      ),
    );
    const { form, file, save } = await openPicker();
    fireEvent.change(file, { target: { files: [picture('renamed.png')] } });
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    expect((await within(form).findByRole('alert')).textContent).toBe(shown);
    // The picked picture stays, to be replaced or given up.
    expect(within(form).getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('removes the saved picture with a JSON updateProfile (avatar null)', async () => {
    const sent: UpdateProfileMutationVariables[] = [];
    renderApp({
      path: '/settings/edit-profile',
      mocks: [
        loggedInMock(),
        settingsMock(saved),
        answerMock<UpdateProfileMutationVariables>(
          UpdateProfileDocument,
          () => true,
          {
            updateProfile: {
              __typename: 'UpdateProfileResult',
              status: statusOf(true, 'ok', 'OK'),
              displayName: 'Alice Jansen',
              bio: 'Dares accepted.',
              avatar: null,
            },
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    const form = await screen.findByRole('form', { name: 'Your profile' });
    expect(imageOf(form)?.getAttribute('src')).toBe('/_ipx/f_webp&w_96/avatars/u-1/old.webp');
    fireEvent.click(within(form).getByRole('button', { name: 'Remove picture' }));
    expect(imageOf(form)).toBeNull();
    expect(within(form).getByText('Save to remove your picture.')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your changes have been saved')).toBeTruthy();
    expect(sent).toEqual([
      { input: { displayName: 'Alice Jansen', bio: 'Dares accepted.', avatar: null } },
    ]);
    expect(within(form).queryByRole('button', { name: 'Remove picture' })).toBeNull();
  });
});
