/**
 * A tiny stand-in for the server at the api-client boundary (global fetch), for component tests
 * only. Routes are "METHOD /path" (path without /api and without the query string); a handler
 * returns `{ status, body }` or just a body (status 200).
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

const isMockResponse = (value: unknown): value is MockResponse =>
  typeof value === 'object' && value !== null && ('status' in value || 'body' in value);

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
