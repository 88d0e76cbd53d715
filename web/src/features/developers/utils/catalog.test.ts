import { describe, expect, it } from 'vitest';
import { ALL_EVENT_KINDS, scopeAreasFor, urlProblem } from './catalog';
import { endOfLocalDay } from './format';

describe('a webhook address', () => {
  it('must be https, or http to this machine (which the server allows only in development and tests)', () => {
    expect(urlProblem('https://crm.example.com/hook')).toBeNull();
    expect(urlProblem('  https://crm.example.com/hook ')).toBeNull();
    expect(urlProblem('http://127.0.0.1:4000/hook')).toBeNull();
    expect(urlProblem('http://crm.example.com/hook')).toBe('The address must start with https://');
    expect(urlProblem('ftp://crm.example.com/hook')).toBe('The address must start with https://');
    expect(urlProblem('crm.example.com/hook')).toBe('Enter the full address, starting with https://');
  });
});

describe('the catalog', () => {
  it('offers the admin scopes to admins alone', () => {
    expect(scopeAreasFor('coach').map((a) => a.area)).toEqual(['bookings', 'availability', 'court_requests', 'profile']);
    expect(scopeAreasFor('admin').map((a) => a.area)).toContain('admin');
  });

  it('names every kind of the design once', () => {
    expect(ALL_EVENT_KINDS).toHaveLength(17);
    expect(new Set(ALL_EVENT_KINDS).size).toBe(17);
    expect(ALL_EVENT_KINDS).toContain('booking.no_show');
  });
});

describe('a token’s last day', () => {
  it('is the end of that local day, as an instant', () => {
    expect(endOfLocalDay('2027-01-31')).toBe(new Date(2027, 0, 31, 23, 59, 59).toISOString());
    expect(endOfLocalDay('')).toBeNull();
    expect(endOfLocalDay('31/01/2027')).toBeNull();
  });
});
