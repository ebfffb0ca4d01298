import type { AuditEvent } from './log.js';

/** An unauthenticated request refused before routing (bad Host, bad Origin, no token, a malformed request). */
export interface Refusal {
  /** The peer address (`socket.remoteAddress`), or `unknown`. */
  address: string;
  /** The answer's code: `unauthorized`, `bad_host`, `bad_origin`, `bad_request`, … */
  code: string;
  /** `METHOD /path` (no query string: it may carry a token). */
  resources: string;
}

/** Refusals of one kind from one address within one window. */
export interface RefusalTally {
  address: string;
  code: string;
  count: number;
  /** The first refused request of the tally, as an example. */
  first: string;
}

/**
 * Counts refusals per (address, kind) over one window, so a flood becomes one record per pair per window. At most
 * `maxKeys` pairs are told apart; the rest share an `address=*` tally per kind (memory stays bounded however many
 * addresses a flood comes from).
 */
export class RefusalWindow {
  private tallies = new Map<string, RefusalTally>();

  constructor(private readonly maxKeys: number) {}

  get size(): number {
    return this.tallies.size;
  }

  add(r: Refusal): void {
    let key = `${r.address}\u0000${r.code}`;
    let address = r.address;
    if (!this.tallies.has(key) && this.tallies.size >= this.maxKeys) {
      key = `*\u0000${r.code}`;
      address = '*';
    }
    const t = this.tallies.get(key);
    if (t) t.count++;
    else this.tallies.set(key, { address, code: r.code, count: 1, first: r.resources });
  }

  /** The window's tallies, leaving it empty. */
  take(): RefusalTally[] {
    const out = [...this.tallies.values()];
    this.tallies.clear();
    return out;
  }
}

/** The record a window's tally becomes. */
export function tallyEvent(t: RefusalTally, windowMs: number): AuditEvent {
  return {
    operation: 'access_control',
    outcome: 'denied',
    caller: 'unauthenticated',
    error: t.code,
    resources: `refused=${t.count} from=${t.address} within=${windowMs}ms first=${t.first}`,
  };
}

/**
 * Refusals counted but not written because refusal records had taken their share of the segment: one tally
 * (per-kind counts, how many addresses, from when to when) written as one record when the next segment begins.
 */
export class HeldRefusals {
  private count = 0;
  private byCode = new Map<string, number>();
  private addresses = new Set<string>();
  private since: Date | undefined;
  private until: Date | undefined;

  constructor(private readonly maxAddresses: number) {}

  get empty(): boolean {
    return this.count === 0;
  }

  add(t: RefusalTally, at: Date): void {
    this.count += t.count;
    this.byCode.set(t.code, (this.byCode.get(t.code) ?? 0) + t.count);
    if (this.addresses.size < this.maxAddresses) this.addresses.add(t.address);
    this.since ??= at;
    this.until = at;
  }

  /** The held tally as one record, leaving it empty; undefined when nothing is held. */
  take(): AuditEvent | undefined {
    if (this.count === 0) return undefined;
    const kinds = [...this.byCode].map(([code, n]) => `${code}=${n}`).join(' ');
    const addrs = `${this.addresses.size}${this.addresses.size >= this.maxAddresses ? '+' : ''}`;
    const event: AuditEvent = {
      operation: 'access_control',
      outcome: 'denied',
      caller: 'unauthenticated',
      error: 'refusals_held',
      resources:
        `refused=${this.count} held back by the refusal share of a segment, from ${addrs} address(es) ` +
        `between ${this.since!.toISOString()} and ${this.until!.toISOString()}: ${kinds}`,
    };
    this.count = 0;
    this.byCode.clear();
    this.addresses.clear();
    this.since = undefined;
    this.until = undefined;
    return event;
  }
}
