/**
 * A tiny stand-in for the server at the api-client boundary (global fetch), for component tests
 * only. Routes are "METHOD /path" (path without /api and without the query string); a handler
 * returns `{ status, body }` or just a body (status 200).
 *
 * A call no route declares fails the test (after it, with the method and path): a test states
 * every call the screen makes, so a new or misspelt request cannot hide behind a quiet 404.
 */
import { vi } from 'vitest';

export interface MockResponse {
  status?: number;
  body?: unknown;
  /** Response headers beside Content-Type (a page's `Link`, `X-Total-Count`). */
  headers?: Record<string, string>;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

type Handler = (call: RecordedCall) => MockResponse | unknown | Promise<MockResponse | unknown>;

const RESPONSE_KEYS = ['status', 'body', 'headers'];

/** `{ status, body, headers }` (any of them) rather than a body: a booking's own `status` field
 * does not make it one. */
const isMockResponse = (value: unknown): value is MockResponse =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length > 0 &&
  Object.keys(value).every((key) => RESPONSE_KEYS.includes(key));

const unexpected: string[] = [];

/** The calls no route answered since the last check, and forget them; `setup-tests` fails a test
 * that made any. */
export function takeUnexpectedCalls(): string[] {
  return unexpected.splice(0);
}

export function mockApi(routes: Record<string, Handler | MockResponse | unknown>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api/, '');
    const headers = (init.headers ?? {}) as Record<string, string>;
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const call: RecordedCall = { method, path, query: url.searchParams, body, headers };
    calls.push(call);

    const route = routes[`${method} ${path}`];
    if (route === undefined) {
      unexpected.push(`${method} ${path}`);
      return json(404, { detail: `No mock for ${method} ${path}` });
    }
    const result = typeof route === 'function' ? await (route as Handler)(call) : route;
    if (isMockResponse(result)) {
      if (result.status === 204) return new Response(null, { status: 204 });
      return json(result.status ?? 200, result.body, result.headers);
    }
    return json(200, result);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}
