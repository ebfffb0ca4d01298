import { describe, expect, it } from 'vitest';
import { searchToolDefinition, searchToolDescription } from '../src/tool/description.js';
import { tolerantSearchToolInputShape } from '../src/tool/input-schema.js';
import { defaultResourceRouter } from '../src/tool/resources.js';

describe('searchToolDefinition: what a host registers the search tool with', () => {
  it('gives the name, the description for the host format and schemes, and the tolerant input shape', async () => {
    const def = await searchToolDefinition({ format: 'plain', schemes: ['docs', 'zip'] });
    expect(def.name).toBe('search');
    expect(def.description).toBe(searchToolDescription({ format: 'plain', schemes: ['docs', 'zip'] }));
    expect(def.description).toContain('zip://');
    expect(def.inputShape).toBe(tolerantSearchToolInputShape);
    expect(Object.keys(def.inputShape)).toContain('pattern');
  });

  it('names, by default, the schemes a search given no router of its own serves', async () => {
    const def = await searchToolDefinition();
    expect(def.description).toBe(searchToolDescription({ schemes: defaultResourceRouter().schemes }));
    expect(def.description).toContain('docs://');
  });
});
