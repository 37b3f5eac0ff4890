import { chunkMappingOf, completeChunkMapping, sharedPageChunks } from '../page-chunks';

describe('the files a prefetched page needs offline', () => {
  const groups = {
    'component---src-pages-fees-tsx': {
      assets: [
        { name: 'styles.1.css' },
        { name: 'cd87-1.js' },
        { name: 'aec6-2.js' },
        { name: 'component---src-pages-fees-tsx-3.js' },
      ],
    },
    'component---src-pages-index-tsx': { assets: [{ name: 'component---src-pages-index-tsx-4.js' }] },
    app: { assets: [{ name: 'app-5.js' }, { name: 'framework-6.js' }] },
  };

  it('lists each page component’s shared scripts, not its own file, its styles or the app', () => {
    expect(sharedPageChunks(groups)).toEqual({ 'component---src-pages-fees-tsx': ['/cd87-1.js', '/aec6-2.js'] });
  });

  it('adds them to what Gatsby prefetches for the page, after its own file', () => {
    const mapping = {
      'component---src-pages-fees-tsx': ['/component---src-pages-fees-tsx-3.js'],
      'component---src-pages-index-tsx': ['/component---src-pages-index-tsx-4.js'],
    };
    const complete = completeChunkMapping(mapping, sharedPageChunks(groups));
    expect(complete['component---src-pages-fees-tsx']).toEqual([
      '/component---src-pages-fees-tsx-3.js',
      '/cd87-1.js',
      '/aec6-2.js',
    ]);
    expect(complete['component---src-pages-index-tsx']).toEqual(['/component---src-pages-index-tsx-4.js']);
    // Done twice (a second page load in the same tab), nothing is listed twice.
    expect(completeChunkMapping(complete, sharedPageChunks(groups))).toEqual(complete);
  });

  it('reads the mapping Gatsby inlines as a JSON string, and survives a broken one', () => {
    expect(chunkMappingOf('{"app":["/app-5.js"]}')).toEqual({ app: ['/app-5.js'] });
    expect(chunkMappingOf({ app: ['/app-5.js'] })).toEqual({ app: ['/app-5.js'] });
    expect(chunkMappingOf('{')).toEqual({});
    expect(chunkMappingOf(undefined)).toEqual({});
  });
});
