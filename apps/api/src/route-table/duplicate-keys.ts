// JSON.parse keeps the last of a key sent twice (`{"app":"a","app":"b"}`) where other parsers keep
// the first or refuse: a body that means one thing to the pipeline's tooling and another to
// Shiplog is refused instead. Runs on text JSON.parse accepted, so it only tracks strings and
// nesting.

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const COMMA = 0x2c
const COLON = 0x3a

/** The first key an object of `json` (valid JSON) holds twice, as JSON.parse would read it. */
export function repeatedKey(json: string): string | undefined {
  // One entry per open object or array: the object's keys so far, or undefined for an array.
  const open: (Set<string> | undefined)[] = []
  let expectingKey = false
  let index = 0
  while (index < json.length) {
    const code = json.charCodeAt(index)
    if (code === QUOTE) {
      const end = closingQuote(json, index)
      const keys = open.at(-1)
      if (expectingKey && keys !== undefined) {
        const raw = json.slice(index + 1, end)
        const key = raw.includes('\\') ? (JSON.parse(json.slice(index, end + 1)) as string) : raw
        if (keys.has(key)) return key
        keys.add(key)
        expectingKey = false
      }
      index = end + 1
      continue
    }
    if (code === OPEN_OBJECT) {
      open.push(new Set())
      expectingKey = true
    } else if (code === OPEN_ARRAY) {
      open.push(undefined)
      expectingKey = false
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      open.pop()
      expectingKey = false
    } else if (code === COMMA) {
      expectingKey = open.at(-1) !== undefined
    } else if (code === COLON) {
      expectingKey = false
    }
    index++
  }
  return undefined
}

/** The index of the quote that closes the string opening at `start`. */
function closingQuote(json: string, start: number): number {
  let at = json.indexOf('"', start + 1)
  for (;;) {
    // A quote preceded by an odd run of backslashes is escaped.
    let backslashes = 0
    while (json.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return at
    at = json.indexOf('"', at + 1)
  }
}
