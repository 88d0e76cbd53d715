import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/testing/mock-api';
import { ApiError, SESSION_EXPIRED_EVENT, api, errorMessage, newIdempotencyKey } from './api-client';

describe('the api client', () => {
  it('sends JSON to /api with the stored bearer token', async () => {
    localStorage.setItem('token', 'abc');
    const { calls } = mockApi({ 'POST /things': { status: 201, body: { id: 1 } } });
    await expect(api.post('/things', { name: 'x' })).resolves.toEqual({ id: 1 });
    expect(calls[0].headers.Authorization).toBe('Bearer abc');
    expect(calls[0].headers['Content-Type']).toBe('application/json');
    expect(calls[0].body).toEqual({ name: 'x' });
  });

  it('sends no Authorization header when signed out', async () => {
    const { calls } = mockApi({ 'GET /coaches': [] });
    await api.get('/coaches');
    expect(calls[0].headers.Authorization).toBeUndefined();
  });

  it('answers 204 with undefined', async () => {
    mockApi({ 'DELETE /availability/1': { status: 204 } });
    await expect(api.delete('/availability/1')).resolves.toBeUndefined();
  });

  it("throws an ApiError with the status and the server's detail", async () => {
    mockApi({ 'POST /bookings': { status: 409, body: { detail: 'Slot already booked' } } });
    const error = await api.post('/bookings', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, detail: 'Slot already booked' });
    expect(errorMessage(error, 'Failed to create booking')).toBe('Slot already booked');
  });

  it('falls back when the body has no detail', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })));
    const error = await api.get('/coaches').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, detail: undefined });
    expect(errorMessage(error, 'Failed to load coaches')).toBe('Failed to load coaches');
  });

  it('reads a file as a Blob, with the token and the same errors', async () => {
    localStorage.setItem('token', 'abc');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('BEGIN:VCALENDAR', { status: 200, headers: { 'Content-Type': 'text/calendar' } })),
    );
    const file = await api.file('/bookings/b-1/ics');
    expect(await file.text()).toBe('BEGIN:VCALENDAR');
    mockApi({ 'GET /bookings/b-2/ics': { status: 404, body: { detail: 'No such booking' } } });
    await expect(api.file('/bookings/b-2/ics')).rejects.toMatchObject({ status: 404, detail: 'No such booking' });
  });

  it('announces a rejected token so the session can end', async () => {
    localStorage.setItem('token', 'revoked');
    mockApi({ 'GET /locations': { status: 401, body: { detail: 'Token revoked' } } });
    const onExpired = vi.fn();
    window.addEventListener(SESSION_EXPIRED_EVENT, onExpired);
    await api.get('/locations').catch(() => undefined);
    window.removeEventListener(SESSION_EXPIRED_EVENT, onExpired);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });
});

describe('writes carry an idempotency key', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('sends a fresh key with each write and none with a read', async () => {
    const { calls } = mockApi({
      'POST /bookings': { status: 201, body: {} },
      'PATCH /bookings/b-1/cancel': {},
      'GET /bookings': [],
    });
    await api.post('/bookings', { slot_id: 's' });
    await api.post('/bookings', { slot_id: 's' });
    await api.patch('/bookings/b-1/cancel');
    await api.get('/bookings');
    const keys = calls.map((call) => call.headers['Idempotency-Key']);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys.slice(0, 3)).size).toBe(3);
    expect(keys[3]).toBeUndefined();
  });

  it('sends a write again with the same key when its answer was lost, and answers the retry', async () => {
    let attempts = 0;
    const { calls, fetchMock } = mockApi({
      'POST /bookings': () => {
        attempts += 1;
        return attempts === 1 ? { status: 503, body: { detail: 'Booking is unavailable' } } : { status: 201, body: { booking_id: 'b-1' } };
      },
    });
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api.post('/bookings', { slot_id: 's' })).resolves.toEqual({ booking_id: 'b-1' });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(calls).toHaveLength(2);
    const key = calls[0].headers['Idempotency-Key'];
    expect(calls[1].headers['Idempotency-Key']).toBe(key);
    expect(calls[1].body).toEqual({ slot_id: 's' });
  });

  it('waits for a first attempt still being carried out (409 with Retry-After), not for a real conflict', async () => {
    let attempts = 0;
    const { calls } = mockApi({
      'POST /bookings': () => {
        attempts += 1;
        return attempts === 1
          ? { status: 409, body: { detail: 'Still being carried out' }, headers: { 'Retry-After': '1' } }
          : { status: 201, body: { booking_id: 'b-1' } };
      },
      'POST /coach/court-reservations': { status: 409, body: { detail: 'Already reserved' } },
    });
    await expect(api.post('/bookings', {})).resolves.toEqual({ booking_id: 'b-1' });
    expect(calls[1].headers['Idempotency-Key']).toBe(calls[0].headers['Idempotency-Key']);
    await expect(api.post('/coach/court-reservations', {})).rejects.toMatchObject({ status: 409 });
    expect(calls).toHaveLength(3);
  });

  it('gives up after three attempts with the last error, and never retries a read', async () => {
    const { calls } = mockApi({
      'DELETE /availability/1': { status: 503, body: { detail: 'Coaching is unavailable' } },
      'GET /coaches': { status: 503, body: { detail: 'Coaching is unavailable' } },
    });
    await expect(api.delete('/availability/1')).rejects.toMatchObject({ status: 503, detail: 'Coaching is unavailable' });
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.headers['Idempotency-Key'])).size).toBe(1);
    await expect(api.get('/coaches')).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(4);
  });

  it("uses the caller's key when it gives one", async () => {
    const { calls } = mockApi({ 'PUT /coach/policy': {} });
    await api.put('/coach/policy', {}, { idempotencyKey: 'k-1' });
    expect(calls[0].headers['Idempotency-Key']).toBe('k-1');
  });

  it('makes UUIDs without crypto.randomUUID too', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toMatch(UUID);
      expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});
