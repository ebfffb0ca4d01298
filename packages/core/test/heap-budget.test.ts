import { describe, expect, it } from 'vitest';
import { HeapBudget, type HeapProbe } from '../src/engine/js/heap-budget.js';

/** A heap whose size the test sets; a collection leaves what is live. */
function fakeHeap(live: number) {
  const heap = { used: live, live, collections: 0 };
  const probe: HeapProbe = {
    used: () => heap.used,
    collect: () => {
      heap.collections++;
      heap.used = heap.live;
    },
  };
  return { heap, probe };
}

describe('HeapBudget', () => {
  it('collects once the heap has grown its slack past what the last collection left, not before', () => {
    const { heap, probe } = fakeHeap(10);
    const budget = new HeapBudget(16, probe);
    heap.used = 25;
    budget.check();
    expect(heap.collections).toBe(0);
    heap.used = 26;
    budget.check();
    expect(heap.collections).toBe(1);
    expect(heap.used).toBe(10);
    // More is live now: the next collection waits for the slack past that.
    heap.live = 20;
    heap.used = 35;
    budget.check();
    expect(heap.collections).toBe(2);
    heap.used = 35;
    budget.check();
    expect(heap.collections).toBe(2);
    heap.used = 36;
    budget.check();
    expect(heap.collections).toBe(3);
  });

  it("on V8's own heap: dead objects promoted to the old generation are collected within the slack", () => {
    const slack = 8 * 1024 * 1024;
    const budget = new HeapBudget(slack);
    const probe = { used: () => process.memoryUsage().heapUsed };
    let kept: unknown[] = [];
    let highest = 0;
    const start = probe.used();
    for (let round = 0; round < 400; round++) {
      // Objects that live across a few scavenges (promoted), then die.
      for (let i = 0; i < 5000; i++) kept.push({ text: `line ${round} ${i}`, at: [round, i] });
      if (round % 4 === 3) kept = [];
      budget.check();
      highest = Math.max(highest, probe.used());
    }
    expect(kept.length).toBeLessThan(20000);
    expect(highest - start).toBeLessThan(3 * slack);
  });
});
