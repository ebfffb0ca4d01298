/**
 * A fake server behind `fetch` for component tests: the real API client runs (token header, JSON, errors), the
 * routes answer from the test. A handler may return a promise that never settles (a request still in flight); it
 * then rejects when the client aborts it, as fetch does.
 */

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, render, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { type DebounceTimers, DebounceTimersContext } from '../../src/ui/useDebounced.js';

// The machine is loaded: give async assertions room; nothing here measures time.
configure({ asyncUtilTimeout: 8000 });

export interface Call {
  method: string;
  path: string;
  params: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

export type Handler = (call: Call) => unknown | Promise<unknown>;

export class HttpError {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export function fakeServer(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://127.0.0.1:7777');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: Call = {
      method,
      path: url.pathname,
      params: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler)
      return new Response(JSON.stringify({ error: 'not found', code: 'not_found' }), { status: 404 });
    const signal = init.signal;
    const result = await new Promise<unknown>((resolve, reject) => {
      if (signal?.aborted) reject(new DOMException('aborted', 'AbortError'));
      signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      Promise.resolve(handler(call)).then(resolve, reject);
    });
    if (result instanceof HttpError)
      return new Response(JSON.stringify(result.body), { status: result.status });
    if (result instanceof Response) return result;
    return new Response(JSON.stringify(result), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    to: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/**
 * Debounce timers on a clock only the test moves: `advance(ms)` fires every window that has elapsed by then, in
 * order, inside `act`. With it a test asserts "nothing before the window, one request after" on any machine.
 */
export function handClock() {
  let now = 0;
  let nextId = 0;
  const pending = new Map<number, { due: number; fire: () => void }>();
  const timers: DebounceTimers = {
    set: (fire, ms) => {
      pending.set(++nextId, { due: now + ms, fire });
      return nextId;
    },
    clear: (id) => void pending.delete(id as number),
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      let first: [number, { due: number; fire: () => void }] | undefined;
      for (const e of pending) if (e[1].due <= until && (!first || e[1].due < first[1].due)) first = e;
      if (!first) break;
      pending.delete(first[0]);
      now = first[1].due;
      act(() => first[1].fire());
    }
    now = until;
  };
  return { timers, advance };
}

export type HandClock = ReturnType<typeof handClock>;

export function renderWithQuery(ui: ReactElement, timers?: DebounceTimers) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const withClient = (el: ReactElement) => <QueryClientProvider client={client}>{el}</QueryClientProvider>;
  const wrap = (el: ReactElement) =>
    timers ? (
      <DebounceTimersContext.Provider value={timers}>{withClient(el)}</DebounceTimersContext.Provider>
    ) : (
      withClient(el)
    );
  const r = render(wrap(ui));
  return { ...r, client, rerender: (el: ReactElement) => r.rerender(wrap(el)) };
}

export const never = () => new Promise<never>(() => {});

export const row = (path: string, kind: 'file' | 'dir', size = 0) => ({
  path,
  name: path.split('/').pop() ?? path,
  kind,
  size,
  mtime: 1_750_000_000,
});

/** The picker option whose name line reads `name` (`src/` for a folder). */
export function optionNamed(name: string): HTMLElement | undefined {
  return screen.queryAllByRole('option').find((o) => o.querySelector('.picker-name')?.textContent === name);
}

export async function findOption(name: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = optionNamed(name);
    if (!found) throw new Error(`no option ${name}`);
  });
  return found!;
}
