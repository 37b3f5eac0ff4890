/**
 * A page that was only prefetched must open offline (docs/decisions/0012). Gatsby prefetches a page's
 * data and its component's own file, but not the shared chunks the component imports
 * (`window.___chunkMapping` lists the component's file only), so offline the service worker
 * restored the page and React failed on "Loading chunk … failed". The build writes every
 * component's other files to /page-chunks.json (gatsby-node.ts); added to the mapping, they are
 * prefetched with the component and gatsby-plugin-offline only restores a page when all of
 * them are cached — otherwise the visitor gets the offline page.
 */
export const PAGE_CHUNKS_FILE = '/page-chunks.json';

export type ChunkMapping = Record<string, string[]>;

/**
 * Gatsby inlines the mapping as a JSON string (`window.___chunkMapping="{…}"`) while its loader
 * reads it as an object, so without this it prefetched no script at all, only page data.
 */
export function chunkMappingOf(value: unknown): ChunkMapping {
  if (typeof value === 'string') {
    try {
      return chunkMappingOf(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return value && typeof value === 'object' ? (value as ChunkMapping) : {};
}

/** The mapping with each component's shared chunks added after its own files (each once). */
export function completeChunkMapping(mapping: ChunkMapping, shared: ChunkMapping): ChunkMapping {
  const complete: ChunkMapping = { ...mapping };
  for (const [name, files] of Object.entries(shared)) {
    complete[name] = [...new Set([...(mapping[name] ?? []), ...files])];
  }
  return complete;
}

/** What /page-chunks.json holds, from webpack's chunk groups: each component's files that are not its own. */
export function sharedPageChunks(
  namedChunkGroups: Record<string, { assets: ({ name: string } | string)[] }>,
): ChunkMapping {
  const shared: ChunkMapping = {};
  for (const [name, group] of Object.entries(namedChunkGroups)) {
    if (!name.startsWith('component---')) continue;
    const files = group.assets
      .map((asset) => (typeof asset === 'string' ? asset : asset.name))
      .filter((file) => file.endsWith('.js') && !file.startsWith(name));
    if (files.length > 0) shared[name] = files.map((file) => `/${file}`);
  }
  return shared;
}
