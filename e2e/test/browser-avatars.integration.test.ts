import sharp from 'sharp';
import { type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, SIZES, shoot, webDist } from '../support/browser.ts';
import { person, type Person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * Avatars in Chromium (issue 12, docs/adr/0049): a user picks a photo in settings, sees it before
 * saving, saves it (a multipart request through the gateway to media), and the picture shows in
 * the settings, the sidebar and the profile, loaded through /_ipx at the size shown. Screenshots
 * at phone and desktop width are left in e2e/test-results/screenshots/.
 */

/** A photo as a phone writes it (a sunset-like gradient with a round "face"), EXIF and GPS in. */
async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#ff9a3c"/><stop offset="1" stop-color="#6a2c70"/></linearGradient></defs>
    <rect width="1200" height="900" fill="url(#g)"/>
    <circle cx="600" cy="420" r="220" fill="#ffd6a5"/>
    <circle cx="530" cy="380" r="24" fill="#333"/><circle cx="670" cy="380" r="24" fill="#333"/>
    <path d="M500 500 Q600 580 700 500" stroke="#333" stroke-width="16" fill="none"/></svg>`;
  return sharp(Buffer.from(svg))
    .jpeg({ quality: 85 })
    .withMetadata({ exif: { IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N' } } })
    .toBuffer();
}

/** The picture's img has loaded (not the initial, not a broken image). */
async function loaded(image: Locator): Promise<string> {
  await image.waitFor();
  // Evaluated in the page (the DOM types are not this package's).
  type Img = { complete: boolean; naturalWidth: number; currentSrc: string };
  await expect
    .poll(() => image.evaluate((node) => (node as unknown as Img).naturalWidth), {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);
  return image.evaluate((node) => (node as unknown as Img).currentSrc);
}

describe('avatars in the browser', () => {
  let platform: Platform;
  let browsers: Browsers;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { webDist });
    browsers = await Browsers.launch(platform.origin);
  }, 120_000);
  afterAll(async () => {
    await browsers?.close();
    await platform?.stop();
  });

  const profileForm = (page: Page) => page.getByRole('form', { name: 'Your profile' });

  it('picks a photo, previews it, saves it, and sees it in settings, the sidebar and the profile', async () => {
    const user: Person = await person(platform);
    const page = await browsers.pageOf(user);
    await page.goto(`${platform.origin}/settings/edit-profile`);
    const form = profileForm(page);
    await form.getByRole('button', { name: 'Choose a picture' }).waitFor();
    await shoot(page, 'avatar-settings-empty');

    // Not a picture: refused at once, nothing uploaded.
    await form.getByLabel('Profile picture file').setInputFiles({
      name: 'party.gif',
      mimeType: 'image/gif',
      buffer: Buffer.from(
        '47494638396101000100800000000000ffffff2c00000000010001000002024401003b',
        'hex',
      ),
    });
    await form.getByRole('alert').filter({ hasText: 'Only jpg, jpeg and png' }).waitFor();
    await shoot(page, 'avatar-settings-invalid');

    await form.getByLabel('Profile picture file').setInputFiles({
      name: 'IMG_0042.JPG',
      mimeType: 'image/jpeg',
      buffer: await photo(),
    });
    const preview = await loaded(form.locator('img'));
    expect(preview).toMatch(/^blob:/);
    await form.getByText('Save to use this picture.').waitFor();
    await shoot(page, 'avatar-settings-preview');

    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved').waitFor({ timeout: 20_000 });
    const saved = await loaded(form.locator('img'));
    // Through /_ipx at the size shown (88 px): 96 at density 1, 192 at 2 (the phone is 3x).
    expect(saved).toMatch(
      new RegExp(`^${platform.origin}/_ipx/f_webp&w_(96|192)/avatars/${user.id}/`),
    );
    await form.getByRole('button', { name: 'Remove picture' }).waitFor();
    await shoot(page, 'avatar-settings-saved');

    // The sidebar (desktop width shows it beside the page).
    await page.setViewportSize(SIZES[1]);
    const sidebar = page.getByRole('navigation', { name: 'Your account' });
    expect(await loaded(sidebar.locator('img').first())).toMatch(/\/_ipx\/f_webp&w_(32|64)\//);

    await page.goto(`${platform.origin}/profile/${user.username}/ongoing-challenges`);
    await page.getByText(`@${user.username}`).first().waitFor();
    const main = page.locator('main header');
    expect(await loaded(main.locator('img').first())).toMatch(/\/_ipx\/f_webp&w_(96|192)\//);
    await shoot(page, 'avatar-profile');
  }, 120_000);
});
