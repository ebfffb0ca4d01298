// The token's way in (URL fragment → session storage, stripped from the address bar) and the event-stream parser.
import { describe, expect, it } from 'vitest';
import { adoptToken, TOKEN_KEY } from '../src/api/auth.js';
import { SseParser } from '../src/api/stream.js';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
  };
}

function fakeHistory() {
  const replaced: string[] = [];
  return {
    replaced,
    history: {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url),
    } as unknown as History,
  };
}

describe('adoptToken', () => {
  it('takes #token= into session storage and strips it from the address bar', () => {
    const storage = memoryStorage();
    const h = fakeHistory();
    const loc = { hash: '#token=abc_123-XYZ', pathname: '/', search: '' } as Location;
    expect(adoptToken(loc, storage, h.history)).toBe('abc_123-XYZ');
    expect(storage.getItem(TOKEN_KEY)).toBe('abc_123-XYZ');
    expect(h.replaced).toEqual(['/']);
  });
  it('keeps other fragment parameters, and reuses the stored token on a reload', () => {
    const storage = memoryStorage();
    const h = fakeHistory();
    adoptToken(
      { hash: '#token=t1&view=files', pathname: '/', search: '?x=1' } as Location,
      storage,
      h.history,
    );
    expect(h.replaced).toEqual(['/?x=1#view=files']);
    const again = fakeHistory();
    expect(adoptToken({ hash: '', pathname: '/', search: '' } as Location, storage, again.history)).toBe(
      't1',
    );
    expect(again.replaced).toEqual([]);
  });
  it('has no token without a fragment or a stored one', () => {
    expect(
      adoptToken({ hash: '', pathname: '/', search: '' } as Location, memoryStorage(), fakeHistory().history),
    ).toBeNull();
  });
});

describe('SseParser', () => {
  const stream =
    'event: chunk\ndata: {"text":"he"}\n\nevent: chunk\r\ndata: {"text":"llo"}\r\n\r\n: comment\n\nevent: done\ndata: {"message":{}}\n\n';
  it('parses whole events whatever the chunking', () => {
    for (const size of [1, 2, 3, 7, stream.length]) {
      const p = new SseParser();
      const events = [];
      for (let i = 0; i < stream.length; i += size) events.push(...p.push(stream.slice(i, i + size)));
      expect(events).toEqual([
        { event: 'chunk', data: '{"text":"he"}' },
        { event: 'chunk', data: '{"text":"llo"}' },
        { event: 'done', data: '{"message":{}}' },
      ]);
    }
  });
  it('joins multi-line data and defaults the event name', () => {
    expect(new SseParser().push('data: a\ndata: b\n\n')).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});
