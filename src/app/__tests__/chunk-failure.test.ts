import { isChunkLoadFailure, RELOADED_KEY, shouldLoadInFull } from '../chunk-failure';

/** The rules behind a failed page chunk's full load (e2e/chunk-failure.spec.ts plays the whole journey). */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('a failed page chunk', () => {
  it("recognises webpack's chunk errors, in its two spellings, and nothing else", () => {
    const chunkError = Object.assign(
      new Error('Loading chunk 6592 failed.\n(error: https://muntly.example/component---src-pages-fees-tsx-d81c.js)'),
      { name: 'ChunkLoadError' },
    );
    expect(isChunkLoadFailure(chunkError)).toBe(true);
    expect(isChunkLoadFailure(new Error('Loading CSS chunk 12 failed.'))).toBe(true);
    expect(isChunkLoadFailure('Loading chunk 7 failed.')).toBe(true);
    expect(isChunkLoadFailure(new Error('Network request failed'))).toBe(false);
    expect(isChunkLoadFailure(undefined)).toBe(false);
    expect(isChunkLoadFailure(null)).toBe(false);
    expect(isChunkLoadFailure({ message: 42 })).toBe(false);
  });

  it('loads a target in full once a session, so a chunk that keeps failing cannot loop', () => {
    const storage = memoryStorage();
    expect(shouldLoadInFull('/fees/', storage)).toBe(true);
    expect(shouldLoadInFull('/fees/', storage)).toBe(false);
    expect(shouldLoadInFull('/fees/', storage)).toBe(false);
    // Another page still gets its one full load.
    expect(shouldLoadInFull('/de/fees/', storage)).toBe(true);
  });

  it('treats a damaged memory as empty, and no memory at all as "do not load" (it could loop)', () => {
    expect(shouldLoadInFull('/fees/', memoryStorage({ [RELOADED_KEY]: '{not json' }))).toBe(true);
    expect(shouldLoadInFull('/fees/', memoryStorage({ [RELOADED_KEY]: '"a string"' }))).toBe(true);
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(shouldLoadInFull('/fees/', refusing)).toBe(false);
    expect(shouldLoadInFull('/fees/', undefined)).toBe(false);
  });
});
