/**
 * A fake server behind `fetch` for component tests: the real API client runs (token header, JSON, errors), the
 * routes answer from the test. A handler may return a promise that never settles (a request still in flight); it
 * then rejects when the client aborts it, as fetch does.
 */

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';

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

export function renderWithQuery(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (el: ReactElement) => <QueryClientProvider client={client}>{el}</QueryClientProvider>;
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
