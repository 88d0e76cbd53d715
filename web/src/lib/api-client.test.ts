import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/testing/mock-api';
import { ApiError, SESSION_EXPIRED_EVENT, api, errorMessage } from './api-client';

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
