/**
 * The one transport every API call goes through: the bearer token, JSON in and out, and errors as `ApiError` with
 * the server's `code`. A call that gets no answer is an ApiError too (status 0, code `unreachable`, a sentence a
 * person can read, never the browser's "Failed to fetch") and is reported to the connection state; an abort
 * propagates unchanged. No caller shapes an empty answer from an error.
 */
import { TOKEN_KEY } from './auth.js';
import { reportReachable, reportUnreachable, UNREACHABLE_MESSAGE } from './connection.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * A search the server answered busy (503: its worker pools are full, or the request's budget went on waiting for
 * one) is asked again, twice, after 0.5 s and 1 s: a moment later the pools have usually drained, and the person
 * typing sees "Searching…" rather than an error for a load spike. Other failures are shown at once.
 */
export const BUSY_RETRIES = 2;
export const retryWhenBusy = (failures: number, error: unknown): boolean =>
  error instanceof ApiError && error.status === 503 && failures < BUSY_RETRIES;
export const busyRetryDelay = (failures: number): number => 500 * 2 ** Math.max(0, failures - 1);

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called on every 401, so the app can show "open the URL trawl serve printed". */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export function authHeaders(): Record<string, string> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** The error for a call that got no answer, or whose answer broke off (the server stopped, the network dropped). */
export function unreachable(cause: unknown): unknown {
  if (cause instanceof DOMException && cause.name === 'AbortError') return cause;
  reportUnreachable();
  return new ApiError(0, 'unreachable', UNREACHABLE_MESSAGE);
}

/**
 * What a place that made a call shows for its failure: the message, or null when the server could not be reached
 * (the connection banner says that once, for every place).
 */
export function errorText(e: unknown): string | null {
  if (e instanceof ApiError && e.code === 'unreachable') return null;
  return e instanceof Error ? e.message : String(e);
}

/** A fetch to `/api/…` with the token; a non-2xx answer throws ApiError. */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers: Record<string, string> = { ...authHeaders(), ...(init.headers as Record<string, string>) };
  if (init.body !== undefined && typeof init.body === 'string') headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers });
  } catch (e) {
    throw unreachable(e);
  }
  reportReachable();
  if (res.ok) return res;
  let code = 'http_error';
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = (await res.json()) as { error?: unknown; code?: unknown };
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.error === 'string') message = body.error;
  } catch {
    // not JSON: keep the status line
  }
  if (res.status === 401) for (const l of unauthorizedListeners) l();
  throw new ApiError(res.status, code, message);
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await apiFetch(path, signal ? { signal } : {});
  return (await res.json()) as T;
}

export async function sendJson<T>(
  method: string,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const init: RequestInit = { method, body: JSON.stringify(body) };
  if (signal) init.signal = signal;
  const res = await apiFetch(path, init);
  return (await res.json()) as T;
}
