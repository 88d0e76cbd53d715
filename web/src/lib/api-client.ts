/**
 * The one way the app talks to the server: JSON over `/api` on the same origin, the bearer token
 * from localStorage "token", and an `ApiError` (status + the server's `detail`) on any non-2xx.
 *
 * Every write (POST, PUT, PATCH, DELETE) is one user action and carries a fresh `Idempotency-Key`.
 * When its answer never comes (the network failed, or a 502/503/504) or the server says the first
 * attempt is still being carried out (409 with `Retry-After`), the client sends it again with the
 * same key, a few times: the server carries it out once, so a flaky network never books twice.
 */
import { env } from '@/config/env';

export const TOKEN_KEY = 'token';

/** Fired on `window` when the server rejects our stored token (401), so the session can end. */
export const SESSION_EXPIRED_EVENT = 'courtside:session-expired';

export class ApiError extends Error {
  readonly status: number;
  /** The server's `{"detail": "..."}` sentence, when it sent one. */
  readonly detail: string | undefined;

  constructor(status: number, detail: string | undefined) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
  }
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string) {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken() {
  localStorage.removeItem(TOKEN_KEY);
}

/** The text to toast for a failed call: the server's detail when present, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.detail) return error.detail;
  return fallback;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

type Query = Record<string, string | number | undefined | null>;

/** The pauses before each retry of a write (so at most three attempts). */
export const RETRY_DELAYS_MS = [250, 1000];

/** A fresh idempotency key: a random UUID (v4), also where `crypto.randomUUID` is missing (a page
 * served over plain http on a LAN address is not a secure context). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether a write's attempt may be sent again with its key: no answer came, or the first attempt
 * is still being carried out. */
function retryable(response: Response | null): boolean {
  if (response === null) return true;
  if ([502, 503, 504].includes(response.status)) return true;
  return response.status === 409 && response.headers.has('Retry-After');
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RequestOptions {
  body?: unknown;
  /** A write's idempotency key; a fresh one when left out (one user action, one key). */
  idempotencyKey?: string;
  query?: Query;
  signal?: AbortSignal;
  /** Read the answer as a file (`blob`) instead of JSON. */
  as?: 'json' | 'blob';
}

function buildUrl(path: string, query?: Query): string {
  const url = `${env.apiBase}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function readDetail(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'detail' in body) {
      const { detail } = body as { detail: unknown };
      if (typeof detail === 'string' && detail.trim()) return detail;
    }
  } catch {
    // Not JSON (a proxy's HTML error page, an empty body): no detail to show.
  }
  return undefined;
}

/** One page of a paged list: its rows, the next page's path (under /api, from the `Link:
 * rel="next"` header; null on the last page) and the list's length when the server tells it
 * (`X-Total-Count`). */
export interface Page<T> {
  rows: T[];
  next: string | null;
  total: number | null;
}

/** The path (without /api) of the `Link: <…>; rel="next"` header, if there is one. */
export function nextLink(header: string | null): string | null {
  const match = header?.match(/<([^>]*)>\s*;\s*rel="?next"?/);
  if (!match) return null;
  const target = match[1];
  return target.startsWith(env.apiBase) ? target.slice(env.apiBase.length) : target;
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return (await send<T>(method, path, options)).body;
}

async function send<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<{ body: T; headers: Headers }> {
  const headers: Record<string, string> = { Accept: options.as === 'blob' ? '*/*' : 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const write = method !== 'GET';
  if (write) headers['Idempotency-Key'] = options.idempotencyKey ?? newIdempotencyKey();
  const attempt = async (): Promise<Response | null> => {
    try {
      return await fetch(buildUrl(path, options.query), {
        method,
        headers,
        body,
        signal: options.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      return null;
    }
  };

  let answer = await attempt();
  if (write) {
    for (const delay of RETRY_DELAYS_MS) {
      if (!retryable(answer)) break;
      await pause(delay);
      options.signal?.throwIfAborted();
      answer = await attempt();
    }
  }
  if (answer === null) throw new ApiError(0, undefined);
  const response = answer;

  if (!response.ok) {
    const detail = await readDetail(response);
    if (response.status === 401 && token) {
      window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT));
    }
    throw new ApiError(response.status, detail);
  }
  if (response.status === 204) return { body: undefined as T, headers: response.headers };
  if (options.as === 'blob') return { body: (await response.blob()) as T, headers: response.headers };
  const text = await response.text();
  return { body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** GET one page of a paged list (a path with `limit`, or a previous page's `next`). */
async function getPage<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<Page<T>> {
  const { body, headers } = await send<T[]>('GET', path, options);
  const total = headers.get('X-Total-Count');
  return {
    rows: body ?? [],
    next: nextLink(headers.get('Link')),
    total: total !== null && /^\d+$/.test(total) ? Number(total) : null,
  };
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body' | 'as'>) => request<T>('GET', path, options),
  getPage,
  /** GET a file (an `.ics`, say) with the same token and errors as every call. */
  file: (path: string, options?: Omit<RequestOptions, 'body' | 'as'>) =>
    request<Blob>('GET', path, { ...options, as: 'blob' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T = void>(path: string, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('DELETE', path, options),
};
