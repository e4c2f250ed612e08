/** The hash-prefix form `KeyDirectory` keeps of a key hash. */
export const hashPrefixOf = (hash: Uint8Array) => Buffer.from(hash.subarray(0, 8)).toString('hex')

/**
 * Which keys may exist, kept in memory as prefixes of their hashes and re-read from Postgres on a
 * miss, at most once per `minIntervalMs`. Lets a valid key in from an address whose budget for bad
 * keys is spent (a team behind one NAT with a misconfigured pipeline), while guesses from that
 * address are answered from memory: guessing costs Postgres one read a second, however fast.
 */
export class KeyDirectory {
  private prefixes = new Set<string>()
  private loadedAt = Number.NEGATIVE_INFINITY
  private loading: Promise<void> | undefined

  constructor(
    private readonly load: () => Promise<string[]>,
    private readonly minIntervalMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** False only when no active key has this hash (as of at most `minIntervalMs` ago). */
  async mayExist(hash: Uint8Array): Promise<boolean> {
    const prefix = hashPrefixOf(hash)
    if (this.prefixes.has(prefix)) return true
    await this.reload()
    return this.prefixes.has(prefix)
  }

  private reload(): Promise<void> {
    if (this.loading) return this.loading
    if (this.now() - this.loadedAt < this.minIntervalMs) return Promise.resolve()
    this.loading = this.load()
      .then((prefixes) => {
        this.prefixes = new Set(prefixes)
        this.loadedAt = this.now()
      })
      .finally(() => {
        this.loading = undefined
      })
    return this.loading
  }
}
