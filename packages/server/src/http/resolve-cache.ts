import { PROJECT_RESOLVE_CACHE_MAX, PROJECT_RESOLVE_TTL_MS } from './limits.js';
import type { ResolveProjectResult, ServerTaskRunner } from './tasks.js';

/**
 * `?project=` resolutions, reused for {@link PROJECT_RESOLVE_TTL_MS}: the root policy runs on the probe pool (a
 * worker round trip and three filesystem calls), and a picker sends the same project with every keystroke. Only
 * `ok` answers are kept (a refusal is decided afresh each time); concurrent resolutions of one spelling share one
 * pool call.
 */
export class ResolveCache {
  private readonly entries = new Map<string, { at: number; result: Promise<ResolveProjectResult> }>();

  constructor(
    private readonly probe: ServerTaskRunner,
    private readonly now: () => number = () => performance.now(),
  ) {}

  resolve(project: string): Promise<ResolveProjectResult> {
    const t = this.now();
    const hit = this.entries.get(project);
    if (hit && t - hit.at < PROJECT_RESOLVE_TTL_MS) return hit.result;
    this.entries.delete(project);
    const result = this.probe.run('resolve-project', { project });
    const entry = { at: t, result };
    this.entries.set(project, entry);
    const drop = () => {
      if (this.entries.get(project) === entry) this.entries.delete(project);
    };
    result.then((r) => {
      if (r.status !== 'ok') drop();
    }, drop);
    while (this.entries.size > PROJECT_RESOLVE_CACHE_MAX)
      this.entries.delete(this.entries.keys().next().value!);
    return result;
  }
}
