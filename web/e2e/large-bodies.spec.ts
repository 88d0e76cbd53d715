import { expect, test } from '@playwright/test';
import { registerViaApi, uniqueEmail } from './support/api';

/**
 * Issue 32: a body over the limit gets its 413 with a JSON detail through nginx, whatever nginx
 * buffered (a 2 MB body used to come back as nginx's own 503 after the gateway refused it and
 * closed before reading it).
 */
test.describe('a body over the limit, through nginx', () => {
  /** Two megabytes of JSON: over the 1 MiB that /api takes. */
  const twoMegabytes = () =>
    JSON.stringify({
      email: uniqueEmail('big'),
      password: 'x'.repeat(2 * 1024 * 1024),
      full_name: 'Big Body',
      role: 'client',
    });

  test('a 2 MB registration is answered 413 with a detail', async ({ request }) => {
    const response = await request.post('/api/auth/register', {
      data: twoMegabytes(),
      headers: { 'Content-Type': 'application/json' },
    });

    expect(response.status()).toBe(413);
    expect(await response.json()).toEqual({ detail: 'The request body is too large.' });
  });

  test('a 2 MB coach profile is answered 413 with a detail', async ({ request }) => {
    const coach = await registerViaApi(request, 'coach');

    const response = await request.put('/api/coach/profile', {
      data: twoMegabytes(),
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${coach.token}` },
    });

    expect(response.status()).toBe(413);
    expect(await response.json()).toEqual({ detail: 'The request body is too large.' });
  });

  test('a picture over 5 MB that nginx passes on gets the gateway\'s 413', async ({ request }) => {
    const client = await registerViaApi(request, 'client');
    // Under nginx's 6 MB for the upload, over the gateway's 5 MB for the picture: the gateway
    // refuses it part way through and must still be heard.
    const picture = Buffer.alloc(5_500_000);
    Buffer.from('89504e470d0a1a0a', 'hex').copy(picture);

    const response = await request.post('/api/client/upload-profile-picture', {
      multipart: { file: { name: 'big.png', mimeType: 'image/png', buffer: picture } },
      headers: { Authorization: `Bearer ${client.token}` },
    });

    expect(response.status()).toBe(413);
    expect(await response.json()).toEqual({ detail: 'Image size must be less than 5MB' });
  });
});
